import { TextField } from '../../../components/ui/text-field';

/** The login form's second step: the code from the authenticator app, or one of the recovery codes. */
export function TotpStep({
  code,
  onChange,
  error,
}: {
  code: string;
  onChange: (code: string) => void;
  error?: string;
}) {
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Two-step sign-in is on for this account. Enter the 6-digit code from your authenticator app, or one of
        your recovery codes.
      </p>
      <TextField
        label="Authentication code"
        name="totp_code"
        autoComplete="one-time-code"
        autoFocus
        spellCheck={false}
        maxLength={32}
        value={code}
        error={error}
        inputClassName="font-mono tracking-wider"
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}
