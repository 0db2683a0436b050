import { type InputHTMLAttributes, useId } from 'react';
import { cn } from '../../lib/ui/cn';

export function Checkbox({
  label,
  className,
  ...props
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'id'> & { label: string }) {
  const id = useId();
  return (
    <div className={cn('flex items-center gap-2', className)}>
      <input
        id={id}
        type="checkbox"
        className="size-4 rounded border-slate-300 dark:border-slate-700 accent-brand-600"
        {...props}
      />
      <label htmlFor={id} className="text-sm text-slate-700 dark:text-slate-300 select-none">
        {label}
      </label>
    </div>
  );
}
