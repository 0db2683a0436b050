import { type ReactNode, useId } from 'react';
import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n/i18n';
import { cn } from '../../../lib/ui/cn';
import { count } from '../lib/admin-format';

// Small pieces the console's panels share: the pager, a labelled control, table heads, sentences holding
// elements, a person's name and username.

/** A person's name as they wrote it: never translated. */
export const Name = ({ children }: { children: ReactNode }) => <span translate="no">{children}</span>;

/** '@username', left to right and never translated, clipped within its line. */
export const Handle = ({ username }: { username: string }) => (
  <span dir="ltr" translate="no" className="inline-block max-w-full truncate align-bottom">
    @{username}
  </span>
);

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
  const t = useT();
  return (
    <nav aria-label={label} className={cn('flex items-center justify-between gap-2', className)}>
      <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('admin.pager.previous')}
      </Button>
      <span className="text-sm text-slate-600 dark:text-slate-400">
        {t('admin.pager.page', { page: count(page), pages: count(pages) })}
      </span>
      <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t('admin.pager.next')}
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
