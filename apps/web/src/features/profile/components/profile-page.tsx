import { displayNameOf, type OwnProfile } from '@parley/protocol';
import { PencilLine, Plus, RefreshCw } from 'lucide-react';
import { Link } from 'react-router';
import { Button, buttonClasses } from '../../../components/ui/button';
import { LoadingState } from '../../../components/ui/spinner';
import { isApiError } from '../../../lib/http/api-error';
import { i18n, useT } from '../../../lib/i18n/i18n';
import { SLOT, Slotted } from '../../../lib/i18n/slotted';
import { usePageTitle } from '../../../lib/ui/document-title';
import { useOwnProfile } from '../api/get-own-profile';
import { formatDate, formatDateTime } from '../lib/dates';
import { ownProfileErrorText } from '../lib/profile-errors';
import { ProfileHeader } from './profile-header';
import { ProfileProblem } from './profile-problem';
import { VerifiedPill } from './verified-badge';

/** /profile: the signed-in person's own profile, with Edit Profile and Refresh. */
export function ProfilePage() {
  const t = useT();
  const profile = useOwnProfile();
  if (profile.isPending) return <LoadingState label={t('profile.loading')} fullPage />;
  if (profile.isError) {
    if (isApiError(profile.error) && profile.error.status === 404) {
      return <ProfileProblem kind="missing" title={t('profile.notFound')} />;
    }
    return (
      <ProfileProblem
        kind="error"
        title={t('profile.loadError')}
        description={ownProfileErrorText(profile.error)}
        onRetry={() => void profile.refetch()}
        retrying={profile.isFetching}
      />
    );
  }
  if (!profile.data) return <ProfileProblem kind="missing" title={t('profile.notFound')} />;
  return (
    <OwnProfileView
      profile={profile.data}
      refreshing={profile.isFetching}
      onRefresh={() => void profile.refetch()}
    />
  );
}

function OwnProfileView({
  profile,
  refreshing,
  onRefresh,
}: {
  profile: OwnProfile;
  refreshing: boolean;
  onRefresh: () => void;
}) {
  const t = useT();
  usePageTitle(t('profile.myTitle'));
  // One's own profile leads with the display name, else the username (SPEC §2, Own profile); the full name has
  // a line of its own below.
  const name = displayNameOf({ displayname: profile.displayname, username: profile.username });
  const fullName = `${profile.first_name} ${profile.last_name}`.trim();
  const info: Array<[string, string, string?]> = [
    [t('profile.username'), `@${profile.username}`],
    [t('profile.displayName'), profile.displayname.trim() || '—'],
    [t('profile.email'), profile.email],
    [t('profile.fullName'), fullName || '—'],
    [t('profile.memberSince'), formatDate(profile.date_joined, i18n.locale), profile.date_joined],
    [t('profile.created'), formatDate(profile.created_at, i18n.locale), profile.created_at],
  ];

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-6 sm:px-6 sm:py-10">
      <h1 className="mb-6 text-2xl font-semibold tracking-tight text-slate-900 dark:text-slate-100">
        {t('profile.myTitle')}
      </h1>
      <div className="space-y-6">
        <section
          aria-labelledby="own-profile-name"
          className="overflow-hidden rounded-2xl border border-slate-200 dark:border-slate-800 bg-white dark:bg-slate-900 shadow-sm"
        >
          <ProfileHeader
            name={name}
            username={profile.username}
            avatar={profile.avatar}
            avatarAlt={t('profile.yourPicture')}
            heading="h2"
            headingId="own-profile-name"
            actions={
              <>
                <Link to="/profile/edit" className={buttonClasses('primary', 'md', 'flex-1 sm:flex-none')}>
                  <PencilLine aria-hidden="true" className="size-4" />
                  {t('profile.edit')}
                </Link>
                <Button
                  variant="secondary"
                  onClick={onRefresh}
                  disabled={refreshing}
                  className="flex-1 sm:flex-none"
                >
                  <RefreshCw aria-hidden="true" className={refreshing ? 'size-4 animate-spin' : 'size-4'} />
                  {t('profile.refresh')}
                </Button>
              </>
            }
          >
            <div className="mt-4 flex flex-wrap items-center justify-center gap-2 sm:justify-start">
              {profile.is_blue_verified && <VerifiedPill />}
              {/* The owner is here, looking at it: online while the browser is, even before the server has
                  seen their socket (else it said 'Last seen …' to a person who was plainly online). */}
              {profile.is_online || navigator.onLine ? (
                <span className="inline-flex items-center gap-1.5 rounded-full bg-emerald-50 dark:bg-emerald-950/40 px-2.5 py-0.5 text-xs font-medium text-emerald-700 dark:text-emerald-300 ring-1 ring-emerald-200 ring-inset dark:ring-emerald-800">
                  <span aria-hidden="true" className="size-2 rounded-full bg-emerald-500" />
                  {t('profile.online')}
                </span>
              ) : profile.last_seen ? (
                <span className="text-sm text-slate-500 dark:text-slate-400">
                  <Slotted text={t('profile.lastSeen', { time: SLOT })}>
                    <time dateTime={profile.last_seen}>{formatDateTime(profile.last_seen, i18n.locale)}</time>
                  </Slotted>
                </span>
              ) : null}
            </div>

            <div className="mt-5 border-t border-slate-100 dark:border-slate-800 pt-5">
              <h3 className="sr-only">{t('profile.bio')}</h3>
              {profile.bio.trim() ? (
                <p className="text-sm leading-relaxed whitespace-pre-line wrap-anywhere text-slate-700 dark:text-slate-300">
                  {profile.bio}
                </p>
              ) : (
                <div className="flex flex-col items-center gap-1 text-sm sm:flex-row sm:gap-3">
                  <p className="text-slate-500 dark:text-slate-400 italic">{t('profile.noBioYet')}</p>
                  <Link
                    to="/profile/edit"
                    className="inline-flex items-center gap-1 rounded font-medium text-brand-700 dark:text-brand-200 hover:text-brand-800 dark:hover:text-brand-200 hover:underline"
                  >
                    <Plus aria-hidden="true" className="size-4" />
                    {t('profile.addBio')}
                  </Link>
                </div>
              )}
            </div>
          </ProfileHeader>
        </section>

        <section
          aria-labelledby="own-profile-info"
          className="rounded-2xl border border-slate-200 dark:border-slate-800 bg-white dark:bg-slate-900 p-5 shadow-sm sm:p-6"
        >
          <h2 id="own-profile-info" className="text-base font-semibold text-slate-900 dark:text-slate-100">
            {t('profile.info')}
          </h2>
          <dl className="mt-4 grid gap-x-6 gap-y-4 sm:grid-cols-2">
            {info.map(([label, value, dateTime]) => (
              <div key={label} className="min-w-0 rounded-xl bg-slate-50 dark:bg-slate-950 px-4 py-3">
                <dt className="text-xs font-medium tracking-wide text-slate-500 dark:text-slate-400 uppercase">
                  {label}
                </dt>
                <dd className="mt-1 text-sm font-medium wrap-anywhere text-slate-900 dark:text-slate-100">
                  {dateTime ? <time dateTime={dateTime}>{value}</time> : value}
                </dd>
              </div>
            ))}
          </dl>
        </section>
      </div>
    </div>
  );
}
