import { SSO_PROVIDER_ID, type SsoErrorKind, ssoErrorKinds } from '@parley/protocol';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { ErrorBanner, InfoNote } from '../../../components/ui/alert';
import { LoadingState } from '../../../components/ui/spinner';
import { type MessageId, useT } from '../../../lib/i18n/i18n';
import { localText } from '../../../lib/i18n/server-texts';
import { authStore, useAuth } from '../../../lib/session/auth-store';
import { cn } from '../../../lib/ui/cn';
import { useSite } from '../api/get-site';
import { redirectTarget } from '../lib/redirect-target';
import { AuthShell } from './auth-shell';
import { LoginForm } from './login-form';
import { SignupPanel } from './signup-form';
import { SocialButtons } from './social-buttons';
import { SsoTotpForm, useSsoReturn } from './sso-return';

type Mode = 'login' | 'signup';
const TABS: Array<{ mode: Mode; label: MessageId; path: string }> = [
  { mode: 'login', label: 'auth.tab.login', path: '/login' },
  { mode: 'signup', label: 'auth.tab.signUp', path: '/register' },
];

/** The banner for the kind of error single sign-on came back with; an unknown kind reads as the provider's. */
const ssoErrorId = (kind: string): MessageId =>
  `auth.sso.error.${ssoErrorKinds.includes(kind as SsoErrorKind) ? (kind as SsoErrorKind) : 'provider'}`;

/** /auth, /login and /register: one screen with a Login tab and a Sign Up tab (SPEC §2). */
export function AuthPage() {
  const t = useT();
  const location = useLocation();
  const navigate = useNavigate();
  const isAuthenticated = useAuth((s) => s.isAuthenticated);
  const loading = useAuth((s) => s.loading);
  const error = useAuth((s) => s.error);
  const tabRefs = useRef<Array<HTMLButtonElement | null>>([]);
  const mode: Mode = location.pathname.startsWith('/register') ? 'signup' : 'login';
  // Who may sign up and the other ways to sign in: said before a form is filled.
  const site = useSite();
  const providers = site.data?.sign_in_providers ?? [];
  const ssoName = providers.find((p) => p.id === SSO_PROVIDER_ID)?.name ?? t('auth.sso.yourProvider');
  // Passwords sign in site admins only (OIDC_ONLY): the provider's button first, the form behind a link. Until the
  // server has said (offline, it may never), the login tab shows its form as always.
  const passwordsOff = site.data?.password_sign_in === false;
  const [passwordForm, setPasswordForm] = useState(false);
  const sso = useSsoReturn();
  const invite = useSearchParams()[0].get('invite')?.trim() || null;
  const returnTo = location.state ? redirectTarget(location.state) : null;

  // A banner belongs to the attempt that raised it; leaving the screen forgets it.
  useEffect(() => () => authStore.getState().clearError(), []);

  if (isAuthenticated && !loading) return <Navigate to={redirectTarget(location.state)} replace />;

  const switchTo = (next: Mode) => {
    if (next === mode) return;
    authStore.getState().clearError();
    const tab = TABS.find((t) => t.mode === next)!;
    // Keeps the saved location so the redirect after signing in still works.
    void navigate(tab.path, { replace: true, state: location.state });
  };

  const onTabKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    event.preventDefault();
    const next = (index + (event.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length;
    tabRefs.current[next]?.focus();
    switchTo(TABS[next]!.mode);
  };

  const title = t(mode === 'login' ? 'auth.login.title' : 'auth.signup.title');
  const subtitle = t(mode === 'login' ? 'auth.login.subtitle' : 'auth.signup.subtitle');

  return (
    <AuthShell title={t(mode === 'login' ? 'auth.tab.login' : 'auth.tab.signUp')}>
      <h1 className="text-center text-2xl font-semibold tracking-tight text-slate-900 dark:text-slate-100">
        {title}
      </h1>
      <p className="mt-1 text-center text-sm text-slate-500 dark:text-slate-400">{subtitle}</p>

      <div
        role="tablist"
        aria-label={t('auth.tabs')}
        className="mt-6 grid grid-cols-2 rounded-xl bg-slate-100 dark:bg-slate-800 p-1"
      >
        {TABS.map((tab, index) => {
          const selected = tab.mode === mode;
          return (
            <button
              key={tab.mode}
              ref={(el) => {
                tabRefs.current[index] = el;
              }}
              type="button"
              role="tab"
              id={`tab-${tab.mode}`}
              aria-selected={selected}
              aria-controls="auth-panel"
              tabIndex={selected ? 0 : -1}
              onClick={() => switchTo(tab.mode)}
              onKeyDown={(e) => onTabKeyDown(e, index)}
              className={cn(
                'h-9 rounded-lg text-sm font-medium transition-colors',
                selected
                  ? 'bg-white dark:bg-slate-900 text-slate-900 dark:text-slate-100 shadow-sm'
                  : 'text-slate-600 dark:text-slate-400 hover:text-slate-800 dark:hover:text-white',
              )}
            >
              {t(tab.label)}
            </button>
          );
        })}
      </div>

      <div id="auth-panel" role="tabpanel" aria-labelledby={`tab-${mode}`} className="mt-6 space-y-4">
        {error && <ErrorBanner>{localText(error)}</ErrorBanner>}
        {sso.error && !error && <ErrorBanner>{t(ssoErrorId(sso.error), { name: ssoName })}</ErrorBanner>}
        {/* Keyed by mode: switching tabs starts from an empty form with no field errors. */}
        {sso.totpCode ? (
          <SsoTotpForm code={sso.totpCode} onBack={sso.dismissTotp} />
        ) : site.isPending && mode === 'signup' ? (
          <LoadingState />
        ) : passwordsOff && mode === 'signup' ? (
          <>
            <InfoNote>{t('auth.sso.signUpOff', { name: ssoName })}</InfoNote>
            <SocialButtons returnTo={returnTo} providers={providers} invite={invite} divider={false} />
          </>
        ) : passwordsOff && !passwordForm ? (
          <>
            <SocialButtons returnTo={returnTo} providers={providers} divider={false} />
            <p className="text-center text-sm text-slate-600 dark:text-slate-400">
              <button
                type="button"
                onClick={() => setPasswordForm(true)}
                className="rounded font-medium text-brand-600 dark:text-brand-300 hover:text-brand-700 dark:hover:text-brand-200"
              >
                {t('auth.sso.adminPassword')}
              </button>
            </p>
          </>
        ) : mode === 'login' ? (
          <LoginForm key="login" />
        ) : (
          <SignupPanel key="signup" site={site.data} />
        )}
      </div>

      {!passwordsOff && !sso.totpCode && (
        <SocialButtons returnTo={returnTo} providers={providers} invite={invite} />
      )}

      <p className="mt-6 text-center text-sm text-slate-600 dark:text-slate-400">
        {t(mode === 'login' ? 'auth.login.noAccount' : 'auth.signup.haveAccount')}{' '}
        <button
          type="button"
          onClick={() => switchTo(mode === 'login' ? 'signup' : 'login')}
          className="rounded font-medium text-brand-600 dark:text-brand-300 hover:text-brand-700 dark:hover:text-brand-200"
        >
          {t(mode === 'login' ? 'auth.tab.signUp' : 'auth.tab.login')}
        </button>
      </p>
    </AuthShell>
  );
}
