import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@parley/protocol';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { ErrorBanner } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { PasswordField } from '../../../components/ui/password-field';
import { bodyField, isApiError, serverErrorOr } from '../../../lib/http/api-error';
import { useT } from '../../../lib/i18n/i18n';
import { localText } from '../../../lib/i18n/server-texts';
import { toast } from '../../../lib/ui/toast';
import { useConfirmPasswordReset } from '../api/confirm-password-reset';

export function ResetNewPasswordStep({
  email,
  code,
  onBack,
}: {
  email: string;
  code: string;
  onBack: () => void;
}) {
  const t = useT();
  const navigate = useNavigate();
  const confirm = useConfirmPasswordReset();
  const [password, setPassword] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (password.length < PASSWORD_MIN_LENGTH) return setFieldError(t('msg.passwordTooShort'));
    setError(null);
    confirm.mutate(
      { email, verification_code: code, new_password: password },
      {
        onSuccess: () => {
          // The server's answer says the same, in English.
          toast.success(t('auth.reset.done'));
          void navigate('/auth', { replace: true });
        },
        onError: (err) => {
          // A refused password (too common) belongs under the field; anything else in the banner.
          const passwordError = isApiError(err) ? bodyField(err.body, 'new_password') : null;
          if (Array.isArray(passwordError) && typeof passwordError[0] === 'string')
            setFieldError(localText(passwordError[0]));
          else setError(serverErrorOr(err, t('auth.reset.failed')));
        },
      },
    );
  };

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4">
      {error && <ErrorBanner>{error}</ErrorBanner>}
      <PasswordField
        label={t('auth.reset.newPassword')}
        autoComplete="new-password"
        autoFocus
        maxLength={PASSWORD_MAX_LENGTH}
        value={password}
        error={fieldError}
        onChange={(e) => {
          setPassword(e.target.value);
          setFieldError(null);
        }}
      />
      <Button type="submit" size="lg" className="w-full" loading={confirm.isPending}>
        {t('auth.reset.submit')}
      </Button>
      <Button variant="ghost" onClick={onBack} className="w-full">
        {t('auth.back')}
      </Button>
    </form>
  );
}
