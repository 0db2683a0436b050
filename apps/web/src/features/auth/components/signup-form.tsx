import {
  EMAIL_MAX_LENGTH,
  type FieldErrors,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  type PublicSite,
  SIGNUPS_CLOSED_MESSAGE,
  type SignupForm as SignupFields,
  USERNAME_MAX_LENGTH,
  validateSignup,
} from '@parley/protocol';
import { type FormEvent, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { InfoNote } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { PasswordField } from '../../../components/ui/password-field';
import { TextField } from '../../../components/ui/text-field';
import { fieldErrors, isApiError } from '../../../lib/http/api-error';
import { useT } from '../../../lib/i18n/i18n';
import { localText } from '../../../lib/i18n/server-texts';
import { focusFirstInvalid } from '../../../lib/ui/focus-first-invalid';
import { toast } from '../../../lib/ui/toast';
import { needsVerification, useRegister } from '../api/register';
import { keptTarget } from '../lib/redirect-target';

const EMPTY: SignupFields = {
  first_name: '',
  last_name: '',
  username: '',
  email: '',
  password: '',
  confirm_password: '',
};
const FIELDS = Object.keys(EMPTY) as Array<keyof SignupFields>;

/** The token of a pasted invite link (/register?invite=…), or what was typed when it is not a link. */
const inviteToken = (value: string): string => {
  const typed = value.trim();
  try {
    return new URL(typed).searchParams.get('invite')?.trim() || typed;
  } catch {
    return typed;
  }
};

/**
 * The Sign Up tab: what the server allows is said before the form (GET /api/site/). Closed with no invite link
 * to use, there is no form to fill, only the way to get one; closed or limited to some domains with invite links
 * about, the form asks for one (required while closed). An invite link opened (/register?invite=…) fills it in.
 */
export function SignupPanel({ site }: { site: PublicSite | undefined }) {
  const t = useT();
  const linked = useSearchParams()[0].get('invite')?.trim() || '';
  if (site?.signups === 'closed' && !site.invites && !linked)
    return (
      <InfoNote>
        <p className="font-medium">{localText(SIGNUPS_CLOSED_MESSAGE)}</p>
      </InfoNote>
    );
  const askInvite = site !== undefined && site.signups !== 'open' && (site.invites || linked !== '');
  return (
    <>
      {site?.signups === 'closed' && <InfoNote>{t('auth.signup.closedWithInvites')}</InfoNote>}
      {site?.signups === 'domains' && (
        <InfoNote>
          {t(askInvite ? 'auth.signup.domainsInvite' : 'auth.signup.domains', {
            domains: site.domains.join(', '),
          })}
        </InfoNote>
      )}
      <SignupForm
        linkedInvite={linked}
        invite={askInvite ? (site.signups === 'closed' ? 'required' : 'optional') : 'none'}
      />
    </>
  );
}

function SignupForm({
  linkedInvite,
  invite: inviteField,
}: {
  linkedInvite: string;
  /** Whether the form asks for an invite link: without one nothing can be sent while sign-ups are closed. */
  invite: 'none' | 'optional' | 'required';
}) {
  const t = useT();
  const navigate = useNavigate();
  const location = useLocation();
  const registerMutation = useRegister();
  const [form, setForm] = useState<SignupFields>(EMPTY);
  const [inviteText, setInviteText] = useState(linkedInvite);
  // A link opened (/register?invite=…) counts even where the form does not show the field (sign-ups open).
  const invite = inviteField === 'none' ? linkedInvite : inviteToken(inviteText);
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FieldErrors<keyof SignupFields | 'invite'>>({});

  const update = (field: keyof SignupFields, value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    setErrors(({ [field]: _cleared, ...rest }) => rest);
  };
  const bind = (field: keyof SignupFields) => ({
    name: field,
    value: form[field],
    // The forms' rules and the server's refusals are English texts; each is shown in the reader's language.
    error: errors[field] && localText(errors[field]),
    onChange: (e: { target: { value: string } }) => update(field, e.target.value),
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found: FieldErrors<keyof SignupFields | 'invite'> = validateSignup(form);
    if (inviteField === 'required' && !invite) found.invite = t('auth.signup.inviteNeeded');
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
          if (answer.message) (mailNotSent ? toast.error : toast.success)(localText(answer.message));
          void navigate('/verify-email', {
            state: { email: answer.email, isFromSignup: true, mailNotSent, ...keptTarget(location.state) },
          });
        },
        onError: (error) => {
          // The server names the field it refuses (a taken username or email, a too common password).
          const byField = fieldErrors(isApiError(error) ? error.body : null);
          const named = [...FIELDS, 'invite'].filter((f) => byField[f]);
          setErrors(Object.fromEntries(named.map((f) => [f, byField[f]])));
          focusFirstInvalid(formRef.current);
        },
      },
    );
  };

  const inviteInput = (
    <TextField
      label={t('auth.signup.inviteLabel')}
      hint={inviteField === 'optional' ? t('auth.signup.inviteHint') : undefined}
      autoComplete="off"
      maxLength={2048}
      name="invite"
      value={inviteText}
      error={errors.invite}
      onChange={(e) => {
        setInviteText(e.target.value);
        setErrors(({ invite: _cleared, ...rest }) => rest);
      }}
    />
  );

  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={onSubmit}
      className="space-y-4"
      aria-label={t('auth.signup.submit')}
    >
      {/* Closed: the link is what lets the rest through, so it comes first. */}
      {inviteField === 'required' && inviteInput}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={t('auth.field.firstName')}
          autoComplete="given-name"
          maxLength={NAME_MAX_LENGTH}
          {...bind('first_name')}
        />
        <TextField
          label={t('auth.field.lastName')}
          autoComplete="family-name"
          maxLength={NAME_MAX_LENGTH}
          {...bind('last_name')}
        />
      </div>
      {/* Every field stops at the server's limit (an over-long one showed zod's raw text). */}
      <TextField
        label={t('auth.field.username')}
        autoComplete="username"
        autoCapitalize="none"
        maxLength={USERNAME_MAX_LENGTH}
        {...bind('username')}
      />
      <TextField
        label={t('auth.field.email')}
        type="email"
        autoComplete="email"
        maxLength={EMAIL_MAX_LENGTH}
        {...bind('email')}
      />
      <PasswordField
        label={t('auth.field.password')}
        autoComplete="new-password"
        maxLength={PASSWORD_MAX_LENGTH}
        {...bind('password')}
      />
      <PasswordField
        label={t('auth.field.confirmPassword')}
        autoComplete="new-password"
        maxLength={PASSWORD_MAX_LENGTH}
        {...bind('confirm_password')}
      />
      {inviteField === 'optional' && inviteInput}
      <Button type="submit" size="lg" className="w-full" loading={registerMutation.isPending}>
        {t('auth.signup.submit')}
      </Button>
    </form>
  );
}
