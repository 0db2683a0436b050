import { type ReactNode, useId } from 'react';
import { cn } from '../../lib/ui/cn';

export interface RadioCardOption<T extends string> {
  value: T;
  label: string;
  description?: ReactNode;
  icon?: ReactNode;
}

/**
 * A choice of one among a few, each a card with a line saying what it means: real radio buttons in a fieldset
 * named by its legend, so arrow keys move between them and screen readers say which is chosen.
 */
export function RadioCards<T extends string>({
  legend,
  name,
  value,
  options,
  onChange,
  disabled,
  className,
}: {
  legend: string;
  /** The radio group's name within its form. */
  name: string;
  value: T;
  options: RadioCardOption<T>[];
  onChange: (value: T) => void;
  disabled?: boolean;
  className?: string;
}) {
  const id = useId();
  return (
    <fieldset className={cn('space-y-1.5', className)} disabled={disabled}>
      <legend className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-300">
        {legend}
      </legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {options.map((option) => {
          const optionId = `${id}-${option.value}`;
          const checked = option.value === value;
          return (
            <label
              key={option.value}
              htmlFor={optionId}
              className={cn(
                'flex cursor-pointer items-start gap-2.5 rounded-lg border px-3 py-2.5 transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600',
                checked
                  ? 'border-brand-600 bg-brand-50 dark:border-brand-400 dark:bg-brand-500/15'
                  : 'border-slate-300 hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800',
              )}
            >
              <input
                id={optionId}
                type="radio"
                name={name}
                value={option.value}
                checked={checked}
                onChange={() => onChange(option.value)}
                aria-describedby={option.description ? `${optionId}-description` : undefined}
                className="mt-0.5 size-4 shrink-0 accent-brand-600 focus-visible:outline-none"
              />
              <span className="min-w-0">
                <span className="flex items-center gap-1.5 text-sm font-medium text-slate-900 dark:text-slate-100">
                  {option.icon}
                  {option.label}
                </span>
                {option.description && (
                  <span
                    id={`${optionId}-description`}
                    className="mt-0.5 block text-xs text-slate-600 dark:text-slate-400"
                  >
                    {option.description}
                  </span>
                )}
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
