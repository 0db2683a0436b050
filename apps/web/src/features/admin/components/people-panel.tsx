import { ADMIN_USERS_PAGE_SIZE, type AdminUser, type AdminUserSort } from '@parley/protocol';
import { ArrowDown, ArrowUp, BadgeCheck, Search } from 'lucide-react';
import { useState } from 'react';
import { ErrorBanner } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { inputClasses } from '../../../components/ui/text-field';
import { useAuth } from '../../../lib/session/auth-store';
import { cn } from '../../../lib/ui/cn';
import { useDebouncedValue } from '../../../lib/ui/use-debounced-value';
import { type PersonAction, useAdminUsers, usePersonAction } from '../api/admin-api';
import { ActionDialog } from './action-dialog';
import { HeaderCell, Pager, tableHeadClasses } from './parts';

const COLUMNS: { sort: AdminUserSort; label: string }[] = [
  { sort: 'displayname', label: 'Name' },
  { sort: 'email', label: 'Email' },
  { sort: 'date_joined', label: 'Joined' },
  { sort: 'last_seen', label: 'Last seen' },
];

const ACTIONS: Record<
  PersonAction,
  { label: string; confirm: string; danger?: boolean; say: (u: AdminUser) => string }
> = {
  deactivate: {
    label: 'Deactivate',
    confirm: 'Deactivate',
    danger: true,
    say: (u) => `${u.displayname} is signed out everywhere at once and cannot sign in until reactivated.`,
  },
  reactivate: {
    label: 'Reactivate',
    confirm: 'Reactivate',
    say: (u) => `${u.displayname} can sign in again.`,
  },
  verify: { label: 'Verify', confirm: 'Give badge', say: (u) => `${u.displayname} gets the verified badge.` },
  unverify: {
    label: 'Unverify',
    confirm: 'Take badge',
    say: (u) => `${u.displayname} loses the verified badge.`,
  },
  'sign-out': {
    label: 'Sign out everywhere',
    confirm: 'Sign out',
    say: (u) => `Every session of ${u.displayname} ends now, on every device.`,
  },
  delete: {
    label: 'Delete account',
    confirm: 'Delete account',
    danger: true,
    say: (u) =>
      `${u.displayname}'s credentials, sessions, profile, picture and messages are deleted for good. Their chats stay for the others, who see a deleted user.`,
  },
};

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString() : '—');

function Status({ user }: { user: AdminUser }) {
  const tags: { text: string; tone: string }[] = [];
  if (!user.is_active)
    tags.push({ text: 'Inactive', tone: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200' });
  if (!user.is_activated)
    tags.push({
      text: 'Unverified email',
      tone: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
    });
  if (user.is_site_admin)
    tags.push({
      text: 'Site admin',
      tone: 'bg-brand-100 text-brand-800 dark:bg-brand-500/20 dark:text-brand-200',
    });
  if (user.is_online)
    tags.push({ text: 'Online', tone: 'bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-200' });
  return (
    <span className="flex flex-wrap gap-1">
      {tags.map((t) => (
        <span key={t.text} className={cn('rounded-full px-2 py-0.5 text-xs font-medium', t.tone)}>
          {t.text}
        </span>
      ))}
    </span>
  );
}

/** The people table: searchable by name and email, sortable, paged, with each person's actions. */
export function PeoplePanel() {
  const me = useAuth((s) => s.user?.id);
  const [typed, setTyped] = useState('');
  const q = useDebouncedValue(typed.trim(), 250);
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<AdminUserSort>('date_joined');
  const [order, setOrder] = useState<'asc' | 'desc'>('desc');
  const users = useAdminUsers(q, page, sort, order);
  const act = usePersonAction();
  const [pending, setPending] = useState<{ user: AdminUser; action: PersonAction } | null>(null);
  const pages = Math.max(1, Math.ceil((users.data?.count ?? 0) / ADMIN_USERS_PAGE_SIZE));

  const sortBy = (column: AdminUserSort) => {
    if (column === sort) setOrder(order === 'asc' ? 'desc' : 'asc');
    else {
      setSort(column);
      setOrder(column === 'date_joined' || column === 'last_seen' ? 'desc' : 'asc');
    }
    setPage(1);
  };

  const actionsFor = (u: AdminUser): PersonAction[] => {
    if (u.id === me) return [u.is_blue_verified ? 'unverify' : 'verify'];
    return [
      u.is_active ? 'deactivate' : 'reactivate',
      u.is_blue_verified ? 'unverify' : 'verify',
      'sign-out',
      'delete',
    ];
  };

  return (
    <Card className="p-0 sm:p-0">
      <div className="flex flex-wrap items-center gap-3 p-4">
        <div className="relative min-w-56 flex-1">
          <Search
            aria-hidden="true"
            className="absolute top-2.5 start-3 size-4.5 text-slate-500 dark:text-slate-400"
          />
          <input
            type="search"
            aria-label="Search people by name or email"
            placeholder="Search by name or email"
            value={typed}
            onChange={(e) => {
              setTyped(e.target.value);
              setPage(1);
            }}
            className={cn(inputClasses(false), 'ps-9')}
          />
        </div>
        <p className="text-sm text-slate-600 dark:text-slate-400" aria-live="polite">
          {users.data ? `${users.data.count} ${users.data.count === 1 ? 'person' : 'people'}` : ''}
          {users.isFetching && <Spinner size="sm" className="ms-2 inline-block" />}
        </p>
      </div>
      {users.error && <ErrorBanner className="mx-4 mb-4">Could not load people.</ErrorBanner>}
      <div className="overflow-x-auto">
        <table className="w-full text-start text-sm">
          <caption className="sr-only">People on this server</caption>
          <thead className={tableHeadClasses}>
            <tr>
              {COLUMNS.map((c) => (
                <th
                  key={c.sort}
                  scope="col"
                  aria-sort={c.sort === sort ? (order === 'asc' ? 'ascending' : 'descending') : 'none'}
                  className="px-4 py-2 font-medium"
                >
                  <button
                    type="button"
                    onClick={() => sortBy(c.sort)}
                    className="inline-flex items-center gap-1 rounded hover:text-slate-900 dark:hover:text-white"
                  >
                    {c.label}
                    {c.sort === sort &&
                      (order === 'asc' ? (
                        <ArrowUp aria-hidden="true" className="size-3.5" />
                      ) : (
                        <ArrowDown aria-hidden="true" className="size-3.5" />
                      ))}
                  </button>
                </th>
              ))}
              <HeaderCell>Status</HeaderCell>
              <HeaderCell>Actions</HeaderCell>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
            {users.data?.results.map((u) => (
              <tr key={u.id} className="text-slate-800 dark:text-slate-200">
                <td className="px-4 py-3">
                  <span className="flex items-center gap-1 font-medium text-slate-900 dark:text-slate-100">
                    {u.displayname}
                    {u.is_blue_verified && (
                      <BadgeCheck
                        aria-label="Verified"
                        className="size-4 text-brand-600 dark:text-brand-300"
                      />
                    )}
                  </span>
                  <span className="text-slate-600 dark:text-slate-400">@{u.username}</span>
                </td>
                <td className="px-4 py-3 break-all">{u.email}</td>
                <td className="px-4 py-3 whitespace-nowrap">{when(u.date_joined)}</td>
                <td className="px-4 py-3 whitespace-nowrap">{when(u.last_seen)}</td>
                <td className="px-4 py-3">
                  <Status user={u} />
                </td>
                <td className="px-4 py-3">
                  <div className="flex flex-wrap gap-1">
                    {actionsFor(u).map((action) => (
                      <Button
                        key={action}
                        size="sm"
                        variant={ACTIONS[action].danger ? 'secondary' : 'ghost'}
                        aria-label={`${ACTIONS[action].label}: ${u.displayname} (@${u.username})`}
                        onClick={() => setPending({ user: u, action })}
                        className={ACTIONS[action].danger ? 'text-red-700 dark:text-red-300' : undefined}
                      >
                        {ACTIONS[action].label}
                      </Button>
                    ))}
                  </div>
                </td>
              </tr>
            ))}
            {users.data?.results.length === 0 && (
              <tr>
                <td colSpan={6} className="px-4 py-8 text-center text-slate-600 dark:text-slate-400">
                  Nobody matches.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <Pager label="People pages" page={page} pages={pages} onPage={setPage} className="p-4" />
      {pending && (
        <ActionDialog
          title={`${ACTIONS[pending.action].label}: @${pending.user.username}?`}
          confirmLabel={ACTIONS[pending.action].confirm}
          danger={ACTIONS[pending.action].danger}
          onConfirm={(note) => act.mutateAsync({ userId: pending.user.id, action: pending.action, note })}
          onClose={() => setPending(null)}
        >
          {ACTIONS[pending.action].say(pending.user)}
        </ActionDialog>
      )}
    </Card>
  );
}
