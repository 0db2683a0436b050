import { Copy } from 'lucide-react';
import { useState } from 'react';
import { useT } from '../../lib/i18n/i18n';
import { Button } from './button';

/**
 * A secret the server shows once (a token, a signing secret, a webhook's address): readable, selectable,
 * copied with one press, and said plainly that it will not be shown again. `copyLabel` names the copy button
 * (in the reader's language); without it, 'Copy' and the label.
 */
export function SecretReveal({
  label,
  copyLabel,
  value,
}: {
  label: string;
  copyLabel?: string;
  value: string;
}) {
  const t = useT();
  const [copied, setCopied] = useState(false);
  return (
    <div className="space-y-1">
      <p className="text-sm font-medium text-slate-900 dark:text-slate-100">{label}</p>
      <div className="flex items-center gap-2">
        {/* An <output>: named by its label, and read out when the secret appears. */}
        <output
          aria-label={label}
          translate="no"
          dir="ltr"
          className="block min-w-0 flex-1 select-all break-all rounded-lg bg-slate-50 px-3 py-2 font-mono text-xs text-slate-900 dark:bg-slate-950 dark:text-slate-100"
        >
          {value}
        </output>
        <Button
          size="sm"
          variant="secondary"
          aria-label={copyLabel ?? t('account.secret.copyLabel', { label: label.toLowerCase() })}
          onClick={() => {
            void navigator.clipboard
              ?.writeText(value)
              .then(() => setCopied(true))
              .catch(() => setCopied(false));
          }}
        >
          <Copy aria-hidden="true" className="size-4" />
          {copied ? t('account.secret.copied') : t('account.secret.copy')}
        </Button>
      </div>
    </div>
  );
}
