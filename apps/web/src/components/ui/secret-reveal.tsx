import { Copy } from 'lucide-react';
import { useState } from 'react';
import { Button } from './button';

/**
 * A secret the server shows once (a token, a signing secret, a webhook's address): readable, selectable,
 * copied with one press, and said plainly that it will not be shown again.
 */
export function SecretReveal({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="space-y-1">
      <p className="text-sm font-medium text-slate-900 dark:text-slate-100">{label}</p>
      <div className="flex items-center gap-2">
        {/* An <output>: named by its label, and read out when the secret appears. */}
        <output
          aria-label={label}
          className="block min-w-0 flex-1 select-all break-all rounded-lg bg-slate-50 px-3 py-2 font-mono text-xs text-slate-900 dark:bg-slate-950 dark:text-slate-100"
        >
          {value}
        </output>
        <Button
          size="sm"
          variant="secondary"
          aria-label={`Copy ${label.toLowerCase()}`}
          onClick={() => {
            void navigator.clipboard
              ?.writeText(value)
              .then(() => setCopied(true))
              .catch(() => setCopied(false));
          }}
        >
          <Copy aria-hidden="true" className="size-4" />
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
    </div>
  );
}
