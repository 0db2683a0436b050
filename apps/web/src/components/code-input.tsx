import { CODE_LENGTH, sanitizeCodeInput } from '@parley/protocol';
import { t } from '../lib/i18n/i18n';
import { toast } from '../lib/ui/toast';
import { TextField } from './ui/text-field';

export interface CodeInputProps {
  label?: string;
  value: string;
  onChange: (code: string) => void;
  error?: string | null;
  disabled?: boolean;
  autoFocus?: boolean;
}

/**
 * The 6-digit code box (SPEC §5): non-digits are stripped with an info notice; a paste keeps only its digits,
 * cut to six, with its own notice.
 */
export function CodeInput({
  label = t('ui.verificationCode'),
  value,
  onChange,
  error,
  disabled,
  autoFocus,
}: CodeInputProps) {
  return (
    <TextField
      label={label}
      value={value}
      error={error}
      disabled={disabled}
      autoFocus={autoFocus}
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]*"
      maxLength={CODE_LENGTH}
      placeholder="000000"
      inputClassName="h-12 indent-[0.5em] text-center font-mono text-xl tracking-[0.5em] placeholder:tracking-[0.5em]"
      onChange={(event) => {
        const { code, stripped } = sanitizeCodeInput(event.target.value);
        if (stripped) toast.info(t('msg.codeDigitsOnly'), { toastId: 'code-digits-only' });
        onChange(code);
      }}
      onPaste={(event) => {
        event.preventDefault();
        const pasted = event.clipboardData.getData('text');
        const { code, stripped } = sanitizeCodeInput(pasted.trim());
        if (stripped) toast.info(t('msg.codePasteDigits'), { toastId: 'code-paste-digits' });
        onChange(code);
      }}
    />
  );
}
