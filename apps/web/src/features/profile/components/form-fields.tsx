import { type InputHTMLAttributes, type TextareaHTMLAttributes, useId } from 'react';
import { inputClasses } from '../../../components/ui/text-field';
import { cn } from '../../../lib/ui/cn';

// The edit form's labelled fields: SPEC writes required labels with an asterisk ('First Name *').

function FieldLabel({ htmlFor, label, required }: { htmlFor: string; label: string; required?: boolean }) {
  return (
    <label htmlFor={htmlFor} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
      {label}
      {required && (
        <span aria-hidden="true" className="ms-0.5 text-red-600 dark:text-red-400">
          {' *'}
        </span>
      )}
    </label>
  );
}

export function ProfileTextField({
  label,
  invalid = false,
  required,
  className,
  ...props
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & { label: string; invalid?: boolean }) {
  const id = useId();
  return (
    <div className={cn('space-y-1.5', className)}>
      <FieldLabel htmlFor={id} label={label} required={required} />
      <input
        id={id}
        required={required}
        aria-invalid={invalid || undefined}
        className={inputClasses(invalid)}
        {...props}
      />
    </div>
  );
}

export function ProfileTextArea({
  label,
  hint,
  className,
  ...props
}: Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> & { label: string; hint?: string }) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className={cn('space-y-1.5', className)}>
      <FieldLabel htmlFor={id} label={label} />
      <textarea
        id={id}
        aria-describedby={hint ? hintId : undefined}
        className={cn(inputClasses(false), 'h-auto resize-y py-2 leading-relaxed')}
        {...props}
      />
      {hint && (
        <p id={hintId} className="text-xs text-slate-500 dark:text-slate-400">
          {hint}
        </p>
      )}
    </div>
  );
}
