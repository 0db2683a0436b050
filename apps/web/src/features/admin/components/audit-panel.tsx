import type { AuditEvent } from '@parley/protocol';
import { useState } from 'react';
import { ErrorBanner } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { LoadingState } from '../../../components/ui/spinner';
import { inputClasses } from '../../../components/ui/text-field';
import { useDebouncedValue } from '../../../lib/ui/use-debounced-value';
import { useAudit, useAuditTypes } from '../api/admin-api';
import { HeaderCell, Labeled, tableHeadClasses } from './parts';

const who = (p: AuditEvent['actor']) => (p ? (p.username ? `@${p.username}` : `#${p.id} (deleted)`) : '—');

/** What else an event says, as `key: value` pairs (notes, IPs, names at the time). */
const details = (detail: AuditEvent['detail']) =>
  Object.entries(detail)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' · ');

/** The audit log, newest first, filtered by event type and by person (what they did or underwent). */
export function AuditPanel() {
  const [type, setType] = useState('');
  const [typedUser, setTypedUser] = useState('');
  const user = useDebouncedValue(typedUser.trim().replace(/^@/, ''), 300);
  const types = useAuditTypes();
  const audit = useAudit(type, user);
  const events = audit.data?.pages.flatMap((p) => p.results) ?? [];

  return (
    <Card className="p-0 sm:p-0">
      <div className="flex flex-wrap gap-3 p-4">
        <Labeled label="Event type">
          {(id) => (
            <select
              id={id}
              value={type}
              onChange={(e) => setType(e.target.value)}
              className={inputClasses(false)}
            >
              <option value="">All events</option>
              {types.data?.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          )}
        </Labeled>
        <Labeled label="Person (username)">
          {(id) => (
            <input
              id={id}
              type="search"
              value={typedUser}
              onChange={(e) => setTypedUser(e.target.value)}
              className={inputClasses(false)}
            />
          )}
        </Labeled>
      </div>
      {audit.error && <ErrorBanner className="mx-4 mb-4">Could not load the audit log.</ErrorBanner>}
      {audit.isPending ? (
        <LoadingState />
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the table scrolls sideways on a phone, so the keyboard must reach it.
        <section tabIndex={0} aria-label="Audit log" className="overflow-x-auto">
          <table className="w-full text-start text-sm">
            <caption className="sr-only">Audit log, newest first</caption>
            <thead className={tableHeadClasses}>
              <tr>
                <HeaderCell>When</HeaderCell>
                <HeaderCell>Event</HeaderCell>
                <HeaderCell>By</HeaderCell>
                <HeaderCell>About</HeaderCell>
                <HeaderCell>Details</HeaderCell>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200 text-slate-800 dark:divide-slate-800 dark:text-slate-200">
              {events.map((e) => (
                <tr key={e.id}>
                  <td className="px-4 py-2 whitespace-nowrap">
                    <time dateTime={e.at}>{new Date(e.at).toLocaleString()}</time>
                  </td>
                  <td className="px-4 py-2 font-mono text-xs">{e.type}</td>
                  <td className="px-4 py-2">{who(e.actor)}</td>
                  <td className="px-4 py-2">{who(e.target)}</td>
                  <td className="px-4 py-2 break-all text-slate-600 dark:text-slate-400">
                    {details(e.detail)}
                  </td>
                </tr>
              ))}
              {events.length === 0 && (
                <tr>
                  <td colSpan={5} className="px-4 py-8 text-center text-slate-600 dark:text-slate-400">
                    No events.
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </section>
      )}
      {audit.hasNextPage && (
        <div className="p-4">
          <Button
            variant="secondary"
            size="sm"
            loading={audit.isFetchingNextPage}
            onClick={() => audit.fetchNextPage()}
          >
            Show older events
          </Button>
        </div>
      )}
    </Card>
  );
}
