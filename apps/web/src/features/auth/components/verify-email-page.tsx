import { CODE_LENGTH, CODE_TTL_MINUTES, validateCode } from '@parley/protocol';
import { MailCheck } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { CodeInput } from '../../../components/code-input';
import { ErrorBanner, InfoNote } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { serverErrorOr } from '../../../lib/http/api-error';
import { useT } from '../../../lib/i18n/i18n';
import { localText } from '../../../lib/i18n/server-texts';
import { authStore, toSignedIn } from '../../../lib/session/auth-store';
import { toast } from '../../../lib/ui/toast';
import { useResendSignupCode } from '../api/resend-signup-code';
import { useVerifySignup } from '../api/verify-signup';
import { keptTarget, redirectTarget } from '../lib/redirect-target';
import { AuthShell } from './auth-shell';
import { Emphasized, SLOT } from './emphasized';

interface VerifyState {
  email?: unknown;
  isFromSignup?: unknown;
  /** The sign-up's mail could not be sent (the mail server was away): no code is on its way yet. */
  mailNotSent?: unknown;
}

/**
 * /verify-email: the sign-up code. Router state carries the email (without it the screen sends the user to /auth)
 * and where to go once verified.
 */
export function VerifyEmailPage() {
  const t = useT();
  const location = useLocation();
  const navigate = useNavigate();
  const state = (location.state ?? {}) as VerifyState;
  const email = typeof state.email === 'string' ? state.email : '';
  const isFromSignup = state.isFromSignup === true;
  // Cleared once a resend has gone through.
  const [mailNotSent, setMailNotSent] = useState(state.mailNotSent === true);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const verify = useVerifySignup();
  const resend = useResendSignupCode();

  if (!email) return <Navigate to="/auth" replace state={keptTarget(location.state)} />;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const invalid = validateCode(code);
    if (invalid) return setError(localText(invalid));
    setError(null);
    verify.mutate(
      { email, verification_code: code },
      {
        onSuccess: (answer) => {
          // A verified sign-up is remembered on this device.
          authStore.getState().loginSuccess(toSignedIn(answer, true));
          toast.success(t('auth.verify.verified'));
          // Back where the person was going before signing up (an invite link), else home.
          void navigate(redirectTarget(location.state), { replace: true });
        },
        onError: (err) => setError(serverErrorOr(err, t('msg.invalidCode'))),
      },
    );
  };

  const onResend = () => {
    setError(null);
    resend.mutate(email, {
      onSuccess: (answer) => {
        // The mail server may still be away: the notice stays, with the same offer.
        const notSent = answer?.mail_sent === false;
        setMailNotSent(notSent);
        // The server says these in English; the reader gets the same words in their language.
        if (notSent) toast.error(t('msg.verificationNotSent'));
        else toast.success(t('auth.verify.newCodeSent'));
      },
      onError: (err) => setError(serverErrorOr(err, t('auth.verify.resendFailed'))),
    });
  };

  return (
    <AuthShell title={t('auth.verify.pageTitle')}>
      <div className="flex flex-col items-center text-center">
        <span className="mb-4 inline-flex size-12 items-center justify-center rounded-2xl bg-brand-50 dark:bg-brand-500/15 text-brand-600 dark:text-brand-300">
          <MailCheck aria-hidden="true" className="size-6" />
        </span>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900 dark:text-slate-100">
          {t('auth.verify.title')}
        </h1>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          <Emphasized
            text={t(
              mailNotSent
                ? 'auth.verify.mailNotSent'
                : isFromSignup
                  ? 'auth.verify.sent'
                  : 'auth.verify.beforeLogin',
              { email: SLOT },
            )}
            value={email}
          />
        </p>
      </div>

      {mailNotSent && (
        <InfoNote className="mt-4">
          <span role="status">{t('msg.verificationNotSent')}</span>{' '}
          <Button type="button" size="sm" variant="secondary" onClick={onResend} loading={resend.isPending}>
            {t('auth.verify.resend')}
          </Button>
        </InfoNote>
      )}

      <form noValidate onSubmit={onSubmit} className="mt-6 space-y-4">
        {error && <ErrorBanner>{error}</ErrorBanner>}
        <CodeInput value={code} onChange={setCode} autoFocus />
        <Button
          type="submit"
          size="lg"
          className="w-full"
          disabled={code.length !== CODE_LENGTH}
          loading={verify.isPending}
        >
          {t('auth.verify.submit')}
        </Button>
      </form>

      <div className="mt-6 space-y-2 text-center text-sm text-slate-500 dark:text-slate-400">
        <p>
          <button
            type="button"
            onClick={onResend}
            disabled={resend.isPending}
            className="rounded font-medium text-brand-600 dark:text-brand-300 hover:text-brand-700 dark:hover:text-brand-200 disabled:text-slate-400 dark:disabled:text-slate-600"
          >
            {t('auth.verify.resendCode')}
          </button>
        </p>
        <p>{t('auth.verify.spam')}</p>
        <p>{t('auth.verify.expires', { minutes: CODE_TTL_MINUTES })}</p>
      </div>

      <div className="mt-6 border-t border-slate-100 dark:border-slate-800 pt-4 text-center">
        <Link
          to="/login"
          state={keptTarget(location.state)}
          className="rounded text-sm font-medium text-slate-600 dark:text-slate-400 hover:text-slate-900 dark:hover:text-white"
        >
          {t('auth.verify.backToLogin')}
        </Link>
      </div>
    </AuthShell>
  );
}
