import { EMAIL_MAX_LENGTH } from '@parley/protocol';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { ErrorBanner } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { serverErrorOr } from '../../../lib/http/api-error';
import { useT } from '../../../lib/i18n/i18n';
import { toast } from '../../../lib/ui/toast';
import { useRequestPasswordReset } from '../api/request-password-reset';

export function ResetEmailStep({
  email,
  onEmailChange,
  onSent,
}: {
  email: string;
  onEmailChange: (email: string) => void;
  onSent: () => void;
}) {
  const t = useT();
  const request = useRequestPasswordReset();
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = email.trim();
    if (!trimmed) return setFieldError(t('msg.resetEmailRequired'));
    setError(null);
    request.mutate(trimmed, {
      onSuccess: () => {
        onEmailChange(trimmed);
        // The same notice whether or not the address has an account.
        toast.success(t('msg.resetRequestSent'));
        onSent();
      },
      onError: (err) => setError(serverErrorOr(err, t('auth.reset.sendFailed'))),
    });
  };

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4">
      {error && <ErrorBanner>{error}</ErrorBanner>}
      <TextField
        label={t('auth.field.email')}
        type="email"
        autoComplete="email"
        autoFocus
        maxLength={EMAIL_MAX_LENGTH}
        value={email}
        error={fieldError}
        onChange={(e) => {
          onEmailChange(e.target.value);
          setFieldError(null);
        }}
      />
      <Button type="submit" size="lg" className="w-full" loading={request.isPending}>
        {t('auth.reset.sendCode')}
      </Button>
      <p className="text-center text-sm">
        <Link
          to="/auth"
          className="rounded font-medium text-slate-600 dark:text-slate-400 hover:text-slate-900 dark:hover:text-white"
        >
          {t('auth.reset.backToLogin')}
        </Link>
      </p>
    </form>
  );
}
