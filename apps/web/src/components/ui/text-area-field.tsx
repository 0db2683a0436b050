import { type TextareaHTMLAttributes, useId } from 'react';
import { useT } from '../../lib/i18n/i18n';
import { cn } from '../../lib/ui/cn';

export interface TextAreaFieldProps
  extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'value'> {
  label: string;
  value: string;
  /** The most characters it takes; the count of those typed shows under the box. */
  maxLength: number;
  error?: string | null;
}

/** A labelled text box of several lines with its count ('12/500') and error bound to it for assistive technology. */
export function TextAreaField({ label, value, maxLength, error, className, ...props }: TextAreaFieldProps) {
  const t = useT();
  const id = useId();
  const countId = `${id}-count`;
  const errorId = `${id}-error`;
  return (
    <div className={cn('space-y-1.5', className)}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
        {label}
      </label>
      <textarea
        id={id}
        value={value}
        maxLength={maxLength}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${errorId} ${countId}` : countId}
        className={cn(
          'block w-full resize-y rounded-lg border bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 dark:bg-slate-900 dark:text-slate-100 dark:placeholder:text-slate-500',
          'focus-visible:outline-2 focus-visible:outline-offset-0 disabled:bg-slate-100 dark:disabled:bg-slate-800',
          error
            ? 'border-red-400 focus-visible:outline-red-500'
            : 'border-slate-300 focus-visible:outline-brand-600 dark:border-slate-700',
        )}
        {...props}
      />
      <div className="flex items-start gap-2">
        {error && (
          <p id={errorId} className="text-xs font-medium text-red-600 dark:text-red-400">
            {error}
          </p>
        )}
        <p id={countId} className="ms-auto text-xs tabular-nums text-slate-500 dark:text-slate-400">
          <span className="sr-only">{t('room.composer.characters')} </span>
          {value.length}/{maxLength}
        </p>
      </div>
    </div>
  );
}
