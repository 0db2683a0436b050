import { CODE_LENGTH, CODE_TTL_MINUTES, MSG, validateCode } from '@parley/protocol';
import { MailCheck } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { CodeInput } from '../../../components/code-input';
import { ErrorBanner, InfoNote } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { serverErrorOr } from '../../../lib/http/api-error';
import { authStore, toSignedIn } from '../../../lib/session/auth-store';
import { toast } from '../../../lib/ui/toast';
import { useResendSignupCode } from '../api/resend-signup-code';
import { useVerifySignup } from '../api/verify-signup';
import { keptTarget, redirectTarget } from '../lib/redirect-target';
import { AuthShell } from './auth-shell';

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
    if (invalid) return setError(invalid);
    setError(null);
    verify.mutate(
      { email, verification_code: code },
      {
        onSuccess: (answer) => {
          // A verified sign-up is remembered on this device.
          authStore.getState().loginSuccess(toSignedIn(answer, true));
          toast.success('Your email is verified. Welcome to Parley!');
          // Back where the person was going before signing up (an invite link), else home.
          void navigate(redirectTarget(location.state), { replace: true });
        },
        onError: (err) => setError(serverErrorOr(err, MSG.invalidCode)),
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
        if (notSent) toast.error(answer?.message ?? MSG.verificationNotSent);
        else toast.success(answer?.message ?? 'A new verification code has been sent to your email.');
      },
      onError: (err) => setError(serverErrorOr(err, 'Failed to resend verification code')),
    });
  };

  return (
    <AuthShell title="Verify Email">
      <div className="flex flex-col items-center text-center">
        <span className="mb-4 inline-flex size-12 items-center justify-center rounded-2xl bg-brand-50 dark:bg-brand-500/15 text-brand-600 dark:text-brand-300">
          <MailCheck aria-hidden="true" className="size-6" />
        </span>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900 dark:text-slate-100">
          Verify your email
        </h1>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          {mailNotSent
            ? 'Your account is created. We will send a 6-digit code to '
            : isFromSignup
              ? 'We sent a 6-digit code to '
              : `${MSG.verifyBeforeLogin} Enter the code we sent to `}
          <strong className="font-semibold wrap-anywhere text-slate-900 dark:text-slate-100">{email}</strong>.
        </p>
      </div>

      {mailNotSent && (
        <InfoNote className="mt-4">
          <span role="status">{MSG.verificationNotSent}</span>{' '}
          <Button type="button" size="sm" variant="secondary" onClick={onResend} loading={resend.isPending}>
            Resend
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
          Verify Email
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
            Resend verification code
          </button>
        </p>
        <p>Can't find the email? Check your spam or junk folder.</p>
        <p>{`The code expires in ${CODE_TTL_MINUTES} minutes.`}</p>
      </div>

      <div className="mt-6 border-t border-slate-100 dark:border-slate-800 pt-4 text-center">
        <Link
          to="/login"
          state={keptTarget(location.state)}
          className="rounded text-sm font-medium text-slate-600 dark:text-slate-400 hover:text-slate-900 dark:hover:text-white"
        >
          ← Back to login
        </Link>
      </div>
    </AuthShell>
  );
}
