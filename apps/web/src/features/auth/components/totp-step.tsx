import { TextField } from '../../../components/ui/text-field';
import { useT } from '../../../lib/i18n/i18n';

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
  const t = useT();
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-700 dark:text-slate-300">{t('auth.totp.intro')}</p>
      <TextField
        label={t('auth.totp.label')}
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
