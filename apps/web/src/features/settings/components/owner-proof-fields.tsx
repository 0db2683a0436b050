import { PasswordField } from '../../../components/ui/password-field';
import { TextField } from '../../../components/ui/text-field';
import { useT } from '../../../lib/i18n/i18n';

export interface OwnerProof {
  password: string;
  code: string;
}

/**
 * What proves the account's owner is at the keyboard before a change that weakens or ends it (turning two-step
 * sign-in off, deleting the account): the password, and while two-step sign-in is on a code from the app or a
 * recovery code. The server's refusals show under their field.
 */
export function OwnerProofFields({
  value,
  onChange,
  withCode,
  errors,
  autoFocus = false,
}: {
  value: OwnerProof;
  onChange: (next: OwnerProof) => void;
  withCode: boolean;
  errors: Record<string, string>;
  autoFocus?: boolean;
}) {
  const t = useT();
  return (
    <>
      <PasswordField
        label={t('account.proof.password')}
        autoComplete="current-password"
        autoFocus={autoFocus}
        value={value.password}
        error={errors.password}
        onChange={(e) => onChange({ ...value, password: e.target.value })}
      />
      {withCode && (
        <TextField
          label={t('account.proof.code')}
          autoComplete="one-time-code"
          value={value.code}
          error={errors.code}
          onChange={(e) => onChange({ ...value, code: e.target.value })}
        />
      )}
    </>
  );
}
