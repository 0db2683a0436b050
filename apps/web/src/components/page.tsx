import type { ReactNode } from 'react';
import { cn } from '../lib/ui/cn';
import { usePageTitle } from '../lib/ui/document-title';

/** The centred content column of an ordinary screen, with its title. */
export function Page({
  title,
  description,
  actions,
  children,
  width = 'md',
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  width?: 'md' | 'lg';
}) {
  usePageTitle(title);
  return (
    <div
      className={cn('mx-auto w-full px-4 py-6 sm:px-6 sm:py-10', width === 'md' ? 'max-w-2xl' : 'max-w-5xl')}
    >
      <div className="mb-6 flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900 dark:text-slate-100">
            {title}
          </h1>
          {description && <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{description}</p>}
        </div>
        {actions}
      </div>
      <div className="space-y-6">{children}</div>
    </div>
  );
}
