import { type SignInProvider, SSO_PROVIDER_ID } from '@parley/protocol';
import { KeyRound } from 'lucide-react';
import type { ReactNode } from 'react';
import { buttonClasses } from '../../../components/ui/button';
import { API_BASE_URL } from '../../../lib/http/api-client';
import { useT } from '../../../lib/i18n/i18n';
import { rememberSsoReturn, ssoStartHref } from '../lib/sso-landing';

// Signing in with an account elsewhere: one 'Sign in with {name}' button per provider the server lists (GET
// /api/site/): the single sign-on provider it is configured for. SPEC's Google and Facebook buttons did nothing,
// so with no provider configured nothing is shown.
function GoogleMark() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4">
      <path
        fill="#4285F4"
        d="M23.5 12.3c0-.8-.1-1.6-.2-2.3H12v4.4h6.5a5.6 5.6 0 0 1-2.4 3.6v3h3.9c2.3-2.1 3.5-5.2 3.5-8.7z"
      />
      <path
        fill="#34A853"
        d="M12 24c3.2 0 6-1.1 8-2.9l-3.9-3c-1.1.7-2.5 1.2-4.1 1.2-3.1 0-5.8-2.1-6.7-5H1.3v3.1A12 12 0 0 0 12 24z"
      />
      <path fill="#FBBC05" d="M5.3 14.3a7.2 7.2 0 0 1 0-4.6V6.6h-4a12 12 0 0 0 0 10.8l4-3.1z" />
      <path
        fill="#EA4335"
        d="M12 4.8c1.8 0 3.3.6 4.6 1.8l3.4-3.4A12 12 0 0 0 1.3 6.6l4 3.1c.9-2.9 3.6-4.9 6.7-4.9z"
      />
    </svg>
  );
}

function FacebookMark() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4">
      <path
        fill="#1877F2"
        d="M24 12a12 12 0 1 0-13.9 11.9v-8.4H7.1V12h3V9.4c0-3 1.8-4.7 4.5-4.7 1.3 0 2.7.2 2.7.2v3h-1.5c-1.5 0-2 .9-2 1.9V12h3.4l-.5 3.5h-2.9v8.4A12 12 0 0 0 24 12z"
      />
    </svg>
  );
}

const SsoMark = () => <KeyRound aria-hidden="true" className="size-4" />;

const MARKS: Record<string, () => ReactNode> = {
  google: GoogleMark,
  facebook: FacebookMark,
  [SSO_PROVIDER_ID]: SsoMark,
};

const socialButton =
  'inline-flex h-10 flex-1 items-center justify-center gap-2 rounded-lg border border-slate-300 dark:border-slate-700 bg-white dark:bg-slate-900 text-sm font-medium text-slate-700 dark:text-slate-300 shadow-sm transition-colors hover:bg-slate-50 dark:hover:bg-slate-800';

/**
 * `invite`: a sign-up page's invite link, carried to the account the sign-in may make. `divider`: the 'or continue
 * with' line above, when the buttons follow a password form; without it they are the screen's main action.
 */
export function SocialButtons({
  providers,
  invite = null,
  divider = true,
  returnTo = null,
}: {
  providers: SignInProvider[];
  invite?: string | null;
  divider?: boolean;
  /** Where to go once signed in (the page the person was sent to sign in from), kept while they are away. */
  returnTo?: string | null;
}) {
  const t = useT();
  if (providers.length === 0) return null;
  return (
    <div>
      {divider && (
        <div className="my-6 flex items-center gap-3 text-xs font-medium text-slate-600 dark:text-slate-400 uppercase">
          <span className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
          {t('auth.sso.or')}
          <span className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
        </div>
      )}
      <div className="flex flex-wrap gap-3">
        {providers.map((provider) => {
          const Mark = MARKS[provider.id];
          return (
            <a
              key={provider.id}
              href={ssoStartHref(provider.start_url, API_BASE_URL, invite)}
              className={divider ? socialButton : buttonClasses('primary', 'lg', 'w-full')}
              onClick={() => returnTo && rememberSsoReturn(returnTo)}
            >
              {Mark && <Mark />}
              {t('auth.sso.signIn', { name: provider.name })}
            </a>
          );
        })}
      </div>
    </div>
  );
}
