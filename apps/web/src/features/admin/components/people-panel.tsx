import { ADMIN_USERS_PAGE_SIZE, type AdminUser, type AdminUserSort } from '@parley/protocol';
import { ArrowDown, ArrowUp, BadgeCheck, Search } from 'lucide-react';
import { useState } from 'react';
import { ErrorBanner } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { inputClasses } from '../../../components/ui/text-field';
import { type MessageId, useT } from '../../../lib/i18n/i18n';
import { Slots, slotsFor } from '../../../lib/i18n/slotted';
import { useAuth } from '../../../lib/session/auth-store';
import { dayText } from '../../../lib/text/locale-format';
import { cn } from '../../../lib/ui/cn';
import { useDebouncedValue } from '../../../lib/ui/use-debounced-value';
import { type PersonAction, useAdminUsers, usePersonAction } from '../api/admin-api';
import { ActionDialog } from './action-dialog';
import { Handle, HeaderCell, Name, Pager, tableHeadClasses } from './parts';

const COLUMNS: { sort: AdminUserSort; label: MessageId }[] = [
  { sort: 'displayname', label: 'admin.people.name' },
  { sort: 'email', label: 'admin.people.email' },
  { sort: 'date_joined', label: 'admin.people.joined' },
  { sort: 'last_seen', label: 'admin.people.lastSeen' },
];

/** Each action's button, its dialog's confirm button and what the dialog says will happen to {name}. */
const ACTIONS: Record<
  PersonAction,
  { label: MessageId; confirm: MessageId; danger?: boolean; say: MessageId }
> = {
  deactivate: {
    label: 'admin.people.deactivate',
    confirm: 'admin.people.deactivate',
    danger: true,
    say: 'admin.people.deactivateSay',
  },
  reactivate: {
    label: 'admin.people.reactivate',
    confirm: 'admin.people.reactivate',
    say: 'admin.people.reactivateSay',
  },
  verify: {
    label: 'admin.people.verify',
    confirm: 'admin.people.verifyConfirm',
    say: 'admin.people.verifySay',
  },
  unverify: {
    label: 'admin.people.unverify',
    confirm: 'admin.people.unverifyConfirm',
    say: 'admin.people.unverifySay',
  },
  'sign-out': {
    label: 'admin.people.signOut',
    confirm: 'admin.people.signOutConfirm',
    say: 'admin.people.signOutSay',
  },
  delete: {
    label: 'admin.people.delete',
    confirm: 'admin.people.delete',
    danger: true,
    say: 'admin.people.deleteSay',
  },
};

const when = (iso: string | null) => (iso ? <time dateTime={iso}>{dayText(iso)}</time> : '—');

function Status({ user }: { user: AdminUser }) {
  const t = useT();
  const tags: { text: MessageId; tone: string }[] = [];
  if (!user.is_active)
    tags.push({
      text: 'admin.people.inactive',
      tone: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200',
    });
  if (!user.is_activated)
    tags.push({
      text: 'admin.people.unverifiedEmail',
      tone: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
    });
  if (user.is_site_admin)
    tags.push({
      text: 'admin.people.siteAdmin',
      tone: 'bg-brand-100 text-brand-800 dark:bg-brand-500/20 dark:text-brand-200',
    });
  if (user.is_online)
    tags.push({
      text: 'admin.people.online',
      tone: 'bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-200',
    });
  return (
    <span className="flex flex-wrap gap-1">
      {tags.map((tag) => (
        <span key={tag.text} className={cn('rounded-full px-2 py-0.5 text-xs font-medium', tag.tone)}>
          {t(tag.text)}
        </span>
      ))}
    </span>
  );
}

/** The people table: searchable by name and email, sortable, paged, with each person's actions. */
export function PeoplePanel() {
  const t = useT();
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
            aria-label={t('admin.people.searchLabel')}
            placeholder={t('admin.people.search')}
            value={typed}
            onChange={(e) => {
              setTyped(e.target.value);
              setPage(1);
            }}
            className={cn(inputClasses(false), 'ps-9')}
          />
        </div>
        <p className="text-sm text-slate-600 dark:text-slate-400" aria-live="polite">
          {users.data ? t('admin.people.count', { count: users.data.count }) : ''}
          {users.isFetching && <Spinner size="sm" className="ms-2 inline-block" />}
        </p>
      </div>
      {users.error && <ErrorBanner className="mx-4 mb-4">{t('admin.people.loadFailed')}</ErrorBanner>}
      <div className="overflow-x-auto">
        <table className="w-full text-start text-sm">
          <caption className="sr-only">{t('admin.people.caption')}</caption>
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
                    {t(c.label)}
                    {c.sort === sort &&
                      (order === 'asc' ? (
                        <ArrowUp aria-hidden="true" className="size-3.5" />
                      ) : (
                        <ArrowDown aria-hidden="true" className="size-3.5" />
                      ))}
                  </button>
                </th>
              ))}
              <HeaderCell>{t('admin.people.status')}</HeaderCell>
              <HeaderCell>{t('admin.people.actions')}</HeaderCell>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
            {users.data?.results.map((u) => (
              <tr key={u.id} className="text-slate-800 dark:text-slate-200">
                <td className="px-4 py-3">
                  <span className="flex items-center gap-1 font-medium text-slate-900 dark:text-slate-100">
                    <Name>{u.displayname}</Name>
                    {u.is_blue_verified && (
                      <BadgeCheck
                        aria-label={t('admin.people.verified')}
                        className="size-4 text-brand-600 dark:text-brand-300"
                      />
                    )}
                  </span>
                  <span className="block text-slate-600 dark:text-slate-400">
                    <Handle username={u.username} />
                  </span>
                </td>
                <td className="px-4 py-3 break-all">
                  <span dir="ltr" translate="no">
                    {u.email}
                  </span>
                </td>
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
                        aria-label={t('admin.people.actionFor', {
                          action: t(ACTIONS[action].label),
                          name: u.displayname,
                          username: u.username,
                        })}
                        onClick={() => setPending({ user: u, action })}
                        className={ACTIONS[action].danger ? 'text-red-700 dark:text-red-300' : undefined}
                      >
                        {t(ACTIONS[action].label)}
                      </Button>
                    ))}
                  </div>
                </td>
              </tr>
            ))}
            {users.data?.results.length === 0 && (
              <tr>
                <td colSpan={6} className="px-4 py-8 text-center text-slate-600 dark:text-slate-400">
                  {t('admin.people.none')}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <Pager label={t('admin.people.pages')} page={page} pages={pages} onPage={setPage} className="p-4" />
      {pending && (
        <ActionDialog
          title={
            <Slots
              text={t('admin.people.dialogTitle', {
                action: t(ACTIONS[pending.action].label),
                ...slotsFor(['username']),
              })}
              nodes={[<Handle key="username" username={pending.user.username} />]}
            />
          }
          confirmLabel={t(ACTIONS[pending.action].confirm)}
          danger={ACTIONS[pending.action].danger}
          onConfirm={(note) => act.mutateAsync({ userId: pending.user.id, action: pending.action, note })}
          onClose={() => setPending(null)}
        >
          <Slots
            text={t(ACTIONS[pending.action].say, slotsFor(['name']))}
            nodes={[<Name key="name">{pending.user.displayname}</Name>]}
          />
        </ActionDialog>
      )}
    </Card>
  );
}
