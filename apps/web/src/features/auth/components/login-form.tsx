import { type FieldErrors, type LoginForm as LoginFields, TOTP_MSG, validateLogin } from '@parley/protocol';
import { type FormEvent, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { PasswordField } from '../../../components/ui/password-field';
import { TextField } from '../../../components/ui/text-field';
import { useT } from '../../../lib/i18n/i18n';
import { localText } from '../../../lib/i18n/server-texts';
import { focusFirstInvalid } from '../../../lib/ui/focus-first-invalid';
import { useLogin } from '../api/login';
import { totpRequired, verificationRequired } from '../lib/auth-errors';
import { keptTarget } from '../lib/redirect-target';
import { TotpStep } from './totp-step';

export function LoginForm() {
  const t = useT();
  const navigate = useNavigate();
  const location = useLocation();
  const loginMutation = useLogin();
  const [form, setForm] = useState<LoginFields>({ email: '', password: '' });
  const [rememberMe, setRememberMe] = useState(true);
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FieldErrors<keyof LoginFields>>({});
  /** Set once the server asks for the second step; the email and password stay as typed. */
  const [totpStep, setTotpStep] = useState(false);
  const [totpCode, setTotpCode] = useState('');
  const [totpError, setTotpError] = useState<string | undefined>();

  const update = (field: keyof LoginFields, value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    setErrors(({ [field]: _cleared, ...rest }) => rest);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateLogin(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return focusFirstInvalid(formRef.current);
    const email = form.email.trim();
    const code = totpCode.trim();
    if (totpStep && !code) return setTotpError(localText(TOTP_MSG.codeRequired));
    // On success the screen's redirect for signed-in users takes it from here.
    loginMutation.mutate(
      { email, password: form.password, remember_me: rememberMe, ...(totpStep ? { totp_code: code } : {}) },
      {
        onError: (error) => {
          if (totpRequired(error)) setTotpStep(true);
          const verification = verificationRequired(error);
          if (verification) {
            void navigate('/verify-email', {
              state: {
                email: verification.email ?? email,
                isFromSignup: false,
                ...keptTarget(location.state),
              },
            });
          }
        },
      },
    );
  };

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} className="space-y-4" aria-label={t('auth.tab.login')}>
      {totpStep ? (
        <TotpStep
          code={totpCode}
          error={totpError}
          onChange={(value) => {
            setTotpCode(value);
            setTotpError(undefined);
          }}
        />
      ) : (
        <>
          <TextField
            label={t('auth.field.email')}
            type="email"
            name="email"
            autoComplete="email"
            value={form.email}
            error={errors.email && localText(errors.email)}
            onChange={(e) => update('email', e.target.value)}
          />
          <PasswordField
            label={t('auth.field.password')}
            name="password"
            autoComplete="current-password"
            value={form.password}
            error={errors.password && localText(errors.password)}
            onChange={(e) => update('password', e.target.value)}
          />
          <div className="flex items-center justify-between gap-3">
            <Checkbox
              label={t('auth.login.remember')}
              checked={rememberMe}
              onChange={(e) => setRememberMe(e.target.checked)}
            />
            <Link
              to="/reset-password"
              className="rounded text-sm font-medium text-brand-600 dark:text-brand-300 hover:text-brand-700 dark:hover:text-brand-200"
            >
              {t('auth.login.forgot')}
            </Link>
          </div>
        </>
      )}
      <Button type="submit" size="lg" className="w-full" loading={loginMutation.isPending}>
        {t(totpStep ? 'auth.verifyButton' : 'auth.login.submit')}
      </Button>
      {totpStep && (
        <Button
          variant="ghost"
          className="w-full"
          onClick={() => {
            setTotpStep(false);
            setTotpCode('');
            setTotpError(undefined);
          }}
        >
          {t('auth.back')}
        </Button>
      )}
    </form>
  );
}
