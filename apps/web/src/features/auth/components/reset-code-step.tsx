import { CODE_LENGTH, MSG } from '@parley/protocol';
import { type FormEvent, useState } from 'react';
import { CodeInput } from '../../../components/code-input';
import { ErrorBanner } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { serverErrorOr } from '../../../lib/http/api-error';
import { toast } from '../../../lib/ui/toast';
import { useRequestPasswordReset } from '../api/request-password-reset';
import { useVerifyPasswordReset } from '../api/verify-password-reset';

export function ResetCodeStep({
  email,
  code,
  onCodeChange,
  onVerified,
  onBack,
}: {
  email: string;
  code: string;
  onCodeChange: (code: string) => void;
  onVerified: () => void;
  onBack: () => void;
}) {
  const verify = useVerifyPasswordReset();
  const resend = useRequestPasswordReset();
  const [error, setError] = useState<string | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (code.length !== CODE_LENGTH) return setError(MSG.resetCodeRequired);
    setError(null);
    verify.mutate(
      { email, verification_code: code },
      { onSuccess: onVerified, onError: (err) => setError(serverErrorOr(err, 'Invalid or expired code')) },
    );
  };

  const onResend = () => {
    if (!email.trim()) return setError(MSG.emailRequired);
    setError(null);
    resend.mutate(email, {
      onSuccess: () => toast.success(MSG.resetRequestSent),
      onError: (err) => setError(serverErrorOr(err, 'Failed to resend code')),
    });
  };

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4">
      {error && <ErrorBanner>{error}</ErrorBanner>}
      <p className="text-center text-sm text-slate-600 dark:text-slate-400">
        Code sent to{' '}
        <strong className="font-semibold wrap-anywhere text-slate-900 dark:text-slate-100">{email}</strong>
      </p>
      <CodeInput value={code} onChange={onCodeChange} autoFocus />
      <Button type="submit" size="lg" className="w-full" loading={verify.isPending}>
        Verify Code
      </Button>
      <div className="flex items-center justify-between">
        <Button variant="ghost" onClick={onBack}>
          Back
        </Button>
        <Button
          variant="ghost"
          onClick={onResend}
          loading={resend.isPending}
          className="text-brand-600 dark:text-brand-300"
        >
          Resend code
        </Button>
      </div>
    </form>
  );
}
