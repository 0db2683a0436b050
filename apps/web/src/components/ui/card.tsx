import type { ReactNode } from 'react';
import { cn } from '../../lib/ui/cn';

export function Card({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <section
      className={cn(
        'rounded-2xl border border-slate-200 dark:border-slate-800 bg-white dark:bg-slate-900 p-5 shadow-sm sm:p-6',
        className,
      )}
    >
      {children}
    </section>
  );
}

export function CardHeader({
  title,
  description,
  id,
}: {
  title: string;
  description?: ReactNode;
  id?: string;
}) {
  return (
    <header className="mb-2">
      <h2 id={id} className="text-base font-semibold text-slate-900 dark:text-slate-100">
        {title}
      </h2>
      {description && <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{description}</p>}
    </header>
  );
}
