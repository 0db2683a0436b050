import { displayNameOf, joinedMonthYear, lastSeenText, type PublicProfile } from '@parley/protocol';
import { CalendarDays, Flag, MapPin, MessageCircle } from 'lucide-react';
import { useState } from 'react';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { BlockButton } from '../../../components/block-button';
import { ReportDialog } from '../../../components/report-dialog';
import { Button } from '../../../components/ui/button';
import { LoadingState } from '../../../components/ui/spinner';
import { isApiError } from '../../../lib/http/api-error';
import { useT } from '../../../lib/i18n/i18n';
import { SLOT, Slotted } from '../../../lib/i18n/slotted';
import { useStartChat } from '../../../lib/queries/start-chat';
import { useAuth } from '../../../lib/session/auth-store';
import { usePageTitle } from '../../../lib/ui/document-title';
import { usePublicProfile } from '../api/get-public-profile';
import { publicProfileErrorText } from '../lib/profile-errors';
import { PresenceLabel } from './presence';
import { ProfileHeader } from './profile-header';
import { ProfileProblem } from './profile-problem';

/** /user/{username}: another person's public profile. One's own username goes to /profile (replace). */
export function PublicProfilePage() {
  const { username = '' } = useParams();
  const own = useAuth((s) => s.user?.username);
  if (own && username === own) return <Navigate to="/profile" replace />;
  return <PublicProfileScreen key={username} username={username} />;
}

function PublicProfileScreen({ username }: { username: string }) {
  const t = useT();
  const profile = usePublicProfile(username);
  if (profile.isPending) return <LoadingState label={t('profile.loading')} fullPage />;
  if (profile.isError) {
    const status = isApiError(profile.error) ? profile.error.status : 0;
    return (
      <ProfileProblem
        kind={status === 403 ? 'private' : status === 404 ? 'missing' : 'error'}
        title={publicProfileErrorText(profile.error)}
        description={
          status === 403
            ? t('profile.hidden', { username })
            : status === 404
              ? t('profile.noOne', { username })
              : t('profile.checkConnection')
        }
        onRetry={status === 403 || status === 404 ? undefined : () => void profile.refetch()}
        retrying={profile.isFetching}
      />
    );
  }
  if (!profile.data) return <ProfileProblem kind="missing" title={t('profile.notFound')} />;
  return <PublicProfileView profile={profile.data} />;
}

function PublicProfileView({ profile }: { profile: PublicProfile }) {
  const t = useT();
  const name = displayNameOf(profile);
  usePageTitle(`${name} (@${profile.username})`);
  const isAuthenticated = useAuth((s) => s.isAuthenticated);
  const navigate = useNavigate();
  const location = useLocation();
  const startChat = useStartChat();
  const [reporting, setReporting] = useState(false);

  const onMessage = () => {
    // A visitor signs in first and comes back here.
    if (!isAuthenticated) return void navigate('/login', { state: { from: location } });
    startChat.mutate(profile.username);
  };

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-6 sm:px-6 sm:py-10">
      <article className="space-y-6">
        <section
          aria-labelledby="profile-name"
          className="overflow-hidden rounded-2xl border border-slate-200 dark:border-slate-800 bg-white dark:bg-slate-900 shadow-sm"
        >
          <ProfileHeader
            name={name}
            username={profile.username}
            avatar={profile.avatar}
            avatarAlt={t('profile.pictureOf', { name })}
            heading="h1"
            headingId="profile-name"
            verified={profile.is_blue_verified}
            bot={profile.is_bot === true}
            actions={
              <Button onClick={onMessage} loading={startChat.isPending} className="w-full sm:w-auto">
                {!startChat.isPending && <MessageCircle aria-hidden="true" className="size-4" />}
                {startChat.isPending ? t('profile.startingChat') : t('profile.message')}
              </Button>
            }
          >
            <ul className="mt-5 flex flex-wrap items-center justify-center gap-x-5 gap-y-2 text-sm text-slate-600 dark:text-slate-400 sm:justify-start">
              <li className="inline-flex items-center gap-2">
                <PresenceLabel online={profile.is_online} />
                {!profile.is_online && profile.last_seen && (
                  <span className="text-slate-500 dark:text-slate-400">
                    ·{' '}
                    <Slotted text={t('profile.lastSeen', { time: SLOT })}>
                      <time dateTime={profile.last_seen}>{lastSeenText(profile.last_seen)}</time>
                    </Slotted>
                  </span>
                )}
              </li>
              {profile.location && (
                <li className="inline-flex items-center gap-1.5">
                  <MapPin aria-hidden="true" className="size-4 text-slate-400 dark:text-slate-400" />
                  <span className="sr-only">{t('profile.location')} </span>
                  {profile.location}
                </li>
              )}
              <li className="inline-flex items-center gap-1.5">
                <CalendarDays aria-hidden="true" className="size-4 text-slate-400 dark:text-slate-400" />
                <Slotted text={t('profile.joined', { date: SLOT })}>
                  <time dateTime={profile.date_joined}>{joinedMonthYear(profile.date_joined)}</time>
                </Slotted>
              </li>
            </ul>
            {isAuthenticated && (
              <div className="mt-5 flex flex-wrap justify-center gap-2 sm:justify-start">
                <BlockButton username={profile.username} name={name} size="sm" />
                <Button variant="ghost" size="sm" onClick={() => setReporting(true)}>
                  <Flag aria-hidden="true" className="size-4" />
                  {t('profile.report')}
                </Button>
              </div>
            )}
            {reporting && (
              <ReportDialog
                subject={name}
                target={{ username: profile.username }}
                onClose={() => setReporting(false)}
              />
            )}
          </ProfileHeader>
        </section>

        <section
          aria-labelledby="profile-about"
          className="rounded-2xl border border-slate-200 dark:border-slate-800 bg-white dark:bg-slate-900 p-5 shadow-sm sm:p-6"
        >
          <h2 id="profile-about" className="text-base font-semibold text-slate-900 dark:text-slate-100">
            {t('profile.about')}
          </h2>
          {profile.bio.trim() ? (
            <p className="mt-2 text-sm leading-relaxed whitespace-pre-line wrap-anywhere text-slate-700 dark:text-slate-300">
              {profile.bio}
            </p>
          ) : (
            <p className="mt-2 text-sm text-slate-500 dark:text-slate-400 italic">{t('profile.noBio')}</p>
          )}
        </section>
      </article>
    </div>
  );
}
