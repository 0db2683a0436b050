import { type InputHTMLAttributes, type ReactNode, useId } from 'react';
import { cn } from '../../lib/ui/cn';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  error?: string | null;
  hint?: ReactNode;
  /** Something inside the right edge of the box, such as a show-password button. */
  trailing?: ReactNode;
  inputClassName?: string;
}

export const inputClasses = (invalid: boolean) =>
  cn(
    'block h-10 w-full rounded-lg border bg-white dark:bg-slate-900 px-3 text-sm text-slate-900 dark:text-slate-100 shadow-sm placeholder:text-slate-400 dark:placeholder:text-slate-500',
    'focus-visible:outline-2 focus-visible:outline-offset-0 disabled:bg-slate-100 dark:disabled:bg-slate-800 disabled:text-slate-500 dark:disabled:text-slate-500',
    invalid
      ? 'border-red-400 focus-visible:outline-red-500'
      : 'border-slate-300 dark:border-slate-700 focus-visible:outline-brand-600',
  );

/** A labelled input with its error and hint bound to it for assistive technology. */
export function TextField({
  label,
  error,
  hint,
  trailing,
  className,
  inputClassName,
  ...props
}: TextFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cn('space-y-1.5', className)}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
        {label}
      </label>
      <div className="relative">
        <input
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className={cn(inputClasses(Boolean(error)), trailing ? 'pe-11' : undefined, inputClassName)}
          {...props}
        />
        {trailing && <div className="absolute inset-y-0 end-0 flex items-center pe-1">{trailing}</div>}
      </div>
      {hint && (
        <p id={hintId} className="text-xs text-slate-500 dark:text-slate-400">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-xs font-medium text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}
