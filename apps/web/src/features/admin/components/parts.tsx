import { type ReactNode, useId } from 'react';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/ui/cn';

// Small pieces the console's panels share: the pager, a labelled control, table heads.

export function Pager({
  label,
  page,
  pages,
  onPage,
  className,
}: {
  label: string;
  page: number;
  pages: number;
  onPage: (page: number) => void;
  className?: string;
}) {
  return (
    <nav aria-label={label} className={cn('flex items-center justify-between gap-2', className)}>
      <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <span className="text-sm text-slate-600 dark:text-slate-400">
        Page {page} of {pages}
      </span>
      <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}

/** A label above the control `children` draws with the id it is given. */
export function Labeled({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
        {label}
      </label>
      {children(id)}
    </div>
  );
}

export const tableHeadClasses =
  'border-y border-slate-200 bg-slate-50 text-slate-700 dark:border-slate-800 dark:bg-slate-950 dark:text-slate-300';

export function HeaderCell({
  children,
  sort,
}: {
  children: ReactNode;
  sort?: 'ascending' | 'descending' | 'none';
}) {
  return (
    <th scope="col" aria-sort={sort} className="px-4 py-2 font-medium">
      {children}
    </th>
  );
}
