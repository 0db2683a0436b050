import { CODE_LENGTH } from '@parley/protocol';
import { type FormEvent, useState } from 'react';
import { CodeInput } from '../../../components/code-input';
import { ErrorBanner } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { serverErrorOr } from '../../../lib/http/api-error';
import { useT } from '../../../lib/i18n/i18n';
import { toast } from '../../../lib/ui/toast';
import { useRequestPasswordReset } from '../api/request-password-reset';
import { useVerifyPasswordReset } from '../api/verify-password-reset';
import { Emphasized, SLOT } from './emphasized';

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
  const t = useT();
  const verify = useVerifyPasswordReset();
  const resend = useRequestPasswordReset();
  const [error, setError] = useState<string | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (code.length !== CODE_LENGTH) return setError(t('msg.resetCodeRequired'));
    setError(null);
    verify.mutate(
      { email, verification_code: code },
      { onSuccess: onVerified, onError: (err) => setError(serverErrorOr(err, t('auth.reset.invalidCode'))) },
    );
  };

  const onResend = () => {
    if (!email.trim()) return setError(t('msg.emailRequired'));
    setError(null);
    resend.mutate(email, {
      onSuccess: () => toast.success(t('msg.resetRequestSent')),
      onError: (err) => setError(serverErrorOr(err, t('auth.reset.resendFailed'))),
    });
  };

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4">
      {error && <ErrorBanner>{error}</ErrorBanner>}
      <p className="text-center text-sm text-slate-600 dark:text-slate-400">
        <Emphasized text={t('auth.reset.codeSentTo', { email: SLOT })} value={email} />
      </p>
      <CodeInput value={code} onChange={onCodeChange} autoFocus />
      <Button type="submit" size="lg" className="w-full" loading={verify.isPending}>
        {t('auth.reset.verifyCode')}
      </Button>
      <div className="flex items-center justify-between">
        <Button variant="ghost" onClick={onBack}>
          {t('auth.back')}
        </Button>
        <Button
          variant="ghost"
          onClick={onResend}
          loading={resend.isPending}
          className="text-brand-600 dark:text-brand-300"
        >
          {t('auth.reset.resendCode')}
        </Button>
      </div>
    </form>
  );
}
