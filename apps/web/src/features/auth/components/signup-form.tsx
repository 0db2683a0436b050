import {
  EMAIL_MAX_LENGTH,
  type FieldErrors,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  type SignupForm as SignupFields,
  USERNAME_MAX_LENGTH,
  validateSignup,
} from '@parley/protocol';
import { type FormEvent, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { PasswordField } from '../../../components/ui/password-field';
import { TextField } from '../../../components/ui/text-field';
import { fieldErrors, isApiError } from '../../../lib/http/api-error';
import { focusFirstInvalid } from '../../../lib/ui/focus-first-invalid';
import { toast } from '../../../lib/ui/toast';
import { needsVerification, useRegister } from '../api/register';

const EMPTY: SignupFields = {
  first_name: '',
  last_name: '',
  username: '',
  email: '',
  password: '',
  confirm_password: '',
};
const FIELDS = Object.keys(EMPTY) as Array<keyof SignupFields>;

export function SignupForm() {
  const navigate = useNavigate();
  const registerMutation = useRegister();
  // An invite link (/register?invite=…) lets a person sign up while sign-ups are closed or limited.
  const invite = useSearchParams()[0].get('invite')?.trim() || undefined;
  const [form, setForm] = useState<SignupFields>(EMPTY);
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FieldErrors<keyof SignupFields>>({});

  const update = (field: keyof SignupFields, value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    setErrors(({ [field]: _cleared, ...rest }) => rest);
  };
  const bind = (field: keyof SignupFields) => ({
    name: field,
    value: form[field],
    error: errors[field],
    onChange: (e: { target: { value: string } }) => update(field, e.target.value),
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateSignup(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return focusFirstInvalid(formRef.current);
    registerMutation.mutate(
      {
        first_name: form.first_name.trim(),
        last_name: form.last_name.trim(),
        username: form.username.trim(),
        email: form.email.trim(),
        password: form.password,
        ...(invite ? { invite } : {}),
      },
      {
        onSuccess: (answer) => {
          // An answer with a token has signed in already; the screen's redirect takes it from there.
          if (!needsVerification(answer)) return;
          // The account exists either way; when its mail could not be sent, the verify screen says so and
          // offers to send the code again.
          const mailNotSent = answer.mail_sent === false;
          if (answer.message) (mailNotSent ? toast.error : toast.success)(answer.message);
          void navigate('/verify-email', {
            state: { email: answer.email, isFromSignup: true, mailNotSent },
          });
        },
        onError: (error) => {
          // The server names the field it refuses (a taken username or email, a too common password).
          const byField = fieldErrors(isApiError(error) ? error.body : null);
          setErrors(Object.fromEntries(FIELDS.filter((f) => byField[f]).map((f) => [f, byField[f]])));
          focusFirstInvalid(formRef.current);
        },
      },
    );
  };

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} className="space-y-4" aria-label="Sign Up">
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="First Name"
          autoComplete="given-name"
          maxLength={NAME_MAX_LENGTH}
          {...bind('first_name')}
        />
        <TextField
          label="Last Name"
          autoComplete="family-name"
          maxLength={NAME_MAX_LENGTH}
          {...bind('last_name')}
        />
      </div>
      {/* Every field stops at the server's limit (an over-long one showed zod's raw text). */}
      <TextField
        label="Username"
        autoComplete="username"
        autoCapitalize="none"
        maxLength={USERNAME_MAX_LENGTH}
        {...bind('username')}
      />
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        maxLength={EMAIL_MAX_LENGTH}
        {...bind('email')}
      />
      <PasswordField
        label="Password"
        autoComplete="new-password"
        maxLength={PASSWORD_MAX_LENGTH}
        {...bind('password')}
      />
      <PasswordField
        label="Confirm Password"
        autoComplete="new-password"
        maxLength={PASSWORD_MAX_LENGTH}
        {...bind('confirm_password')}
      />
      <Button type="submit" size="lg" className="w-full" loading={registerMutation.isPending}>
        Sign Up
      </Button>
    </form>
  );
}
