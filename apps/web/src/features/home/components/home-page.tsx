import { LogIn, MessagesSquare, UserPlus } from 'lucide-react';
import { Link } from 'react-router';
import { ErrorBanner } from '../../../components/ui/alert';
import { buttonClasses } from '../../../components/ui/button';
import { LoadingState } from '../../../components/ui/spinner';
import { useT } from '../../../lib/i18n/i18n';
import { useAuth } from '../../../lib/session/auth-store';
import { usePageTitle } from '../../../lib/ui/document-title';
import { useProfiles } from '../api/get-profiles';
import { useStats } from '../api/get-stats';
import { HomeStats } from './home-stats';
import { ProfileCard } from './profile-card';

/** '/': the tagline, the platform statistics and everyone to start a chat with. */
export function HomePage() {
  const t = useT();
  usePageTitle(t('home.title'));
  const isAuthenticated = useAuth((s) => s.isAuthenticated);
  const firstName = useAuth((s) => s.user?.first_name);
  const ownId = useAuth((s) => s.user?.id);
  const profiles = useProfiles();
  const stats = useStats();

  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-10 sm:px-6 sm:py-16">
      <section aria-labelledby="home-tagline" className="mx-auto max-w-2xl text-center">
        {isAuthenticated && firstName && (
          <p className="mb-3 text-sm font-medium text-brand-700 dark:text-brand-200">
            {t('home.welcome', { name: firstName })}
          </p>
        )}
        <h1
          id="home-tagline"
          className="text-3xl font-semibold tracking-tight text-balance text-slate-900 dark:text-slate-100 sm:text-5xl"
        >
          {t('home.tagline')}
        </h1>
        <p className="mx-auto mt-4 max-w-xl text-base text-balance text-slate-600 dark:text-slate-400 sm:text-lg">
          {t('home.lead')}
        </p>
        <div className="mt-7 flex flex-col justify-center gap-3 sm:flex-row">
          {isAuthenticated ? (
            <Link to="/chats" className={buttonClasses('primary', 'lg')}>
              <MessagesSquare aria-hidden="true" className="size-5" />
              {t('home.goToChats')}
            </Link>
          ) : (
            <>
              <Link to="/register" className={buttonClasses('primary', 'lg')}>
                <UserPlus aria-hidden="true" className="size-5" />
                {t('home.signUp')}
              </Link>
              <Link to="/login" className={buttonClasses('secondary', 'lg')}>
                <LogIn aria-hidden="true" className="size-5 rtl:-scale-x-100" />
                {t('home.logIn')}
              </Link>
            </>
          )}
        </div>
      </section>

      <section aria-label={t('home.statistics')} className="mt-10">
        <HomeStats />
      </section>

      <section aria-labelledby="home-people" className="mt-12 sm:mt-16">
        <div className="mb-5 flex flex-wrap items-end justify-between gap-2">
          <div>
            <h2
              id="home-people"
              className="text-xl font-semibold tracking-tight text-slate-900 dark:text-slate-100"
            >
              {t('home.people')}
            </h2>
            <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">
              {isAuthenticated ? t('home.peopleHint') : t('home.peopleHintSignedOut')}
            </p>
          </div>
        </div>

        {(profiles.isError || stats.isError) && (
          <ErrorBanner className="mb-5">{t('home.loadFailed')}</ErrorBanner>
        )}

        {profiles.isPending ? (
          <LoadingState label={t('home.loading')} />
        ) : profiles.isError ? null : profiles.data.length === 0 ? (
          <p className="rounded-2xl border border-dashed border-slate-300 dark:border-slate-700 bg-white dark:bg-slate-900 px-4 py-12 text-center text-sm text-slate-500 dark:text-slate-400">
            {t('home.none')}
          </p>
        ) : (
          <ul className="grid grid-cols-2 gap-3 sm:gap-4">
            {profiles.data.map((profile) => (
              <li key={profile.id}>
                <ProfileCard profile={profile} own={profile.id === ownId} />
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
