import type { AuditEvent } from '@parley/protocol';
import { useState } from 'react';
import { ErrorBanner } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { LoadingState } from '../../../components/ui/spinner';
import { inputClasses } from '../../../components/ui/text-field';
import { useT } from '../../../lib/i18n/i18n';
import { Slots, slotsFor } from '../../../lib/i18n/slotted';
import { fullDateTime } from '../../../lib/text/locale-format';
import { useDebouncedValue } from '../../../lib/ui/use-debounced-value';
import { useAudit, useAuditTypes } from '../api/admin-api';
import { AUDIT_TYPE_IDS, DETAIL_KEY_IDS } from '../lib/admin-texts';
import { Handle, HeaderCell, Labeled, tableHeadClasses } from './parts';

function Who({ person }: { person: AuditEvent['actor'] }) {
  const t = useT();
  if (!person) return <>—</>;
  if (person.username) return <Handle username={person.username} />;
  return <>{t('admin.audit.deleted', { id: person.id })}</>;
}

/** An event type's label, where the server's set has one; else the type as recorded. */
function useEventLabel(): (type: string) => string {
  const t = useT();
  return (type) => {
    const id = AUDIT_TYPE_IDS[type];
    return id ? t(id) : type;
  };
}

/** What else an event says, as `key: value` pairs (notes, IPs, names at the time): the values as recorded. */
function Details({ detail }: { detail: AuditEvent['detail'] }) {
  const t = useT();
  return (
    <>
      {Object.entries(detail).map(([key, value], i) => {
        const id = DETAIL_KEY_IDS[key];
        return (
          <span key={key}>
            {i > 0 && ' · '}
            <span>
              <Slots
                text={t('admin.audit.detail', slotsFor(['key', 'value']))}
                nodes={[
                  id ? t(id) : <span translate="no">{key}</span>,
                  <span translate="no">{typeof value === 'string' ? value : JSON.stringify(value)}</span>,
                ]}
              />
            </span>
          </span>
        );
      })}
    </>
  );
}

/** The audit log, newest first, filtered by event type and by person (what they did or underwent). */
export function AuditPanel() {
  const t = useT();
  const label = useEventLabel();
  const [type, setType] = useState('');
  const [typedUser, setTypedUser] = useState('');
  const user = useDebouncedValue(typedUser.trim().replace(/^@/, ''), 300);
  const types = useAuditTypes();
  const audit = useAudit(type, user);
  const events = audit.data?.pages.flatMap((p) => p.results) ?? [];

  return (
    <Card className="p-0 sm:p-0">
      <div className="flex flex-wrap gap-3 p-4">
        <Labeled label={t('admin.audit.type')}>
          {(id) => (
            <select
              id={id}
              value={type}
              onChange={(e) => setType(e.target.value)}
              className={inputClasses(false)}
            >
              <option value="">{t('admin.audit.all')}</option>
              {types.data?.map((type) => (
                <option key={type} value={type} translate={AUDIT_TYPE_IDS[type] ? undefined : 'no'}>
                  {label(type)}
                </option>
              ))}
            </select>
          )}
        </Labeled>
        <Labeled label={t('admin.audit.person')}>
          {(id) => (
            <input
              id={id}
              type="search"
              value={typedUser}
              onChange={(e) => setTypedUser(e.target.value)}
              dir="ltr"
              className={inputClasses(false)}
            />
          )}
        </Labeled>
      </div>
      {audit.error && <ErrorBanner className="mx-4 mb-4">{t('admin.audit.loadFailed')}</ErrorBanner>}
      {audit.isPending ? (
        <LoadingState />
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the table scrolls sideways on a phone, so the keyboard must reach it.
        <section tabIndex={0} aria-label={t('admin.tab.audit')} className="overflow-x-auto">
          <table className="w-full text-start text-sm">
            <caption className="sr-only">{t('admin.audit.caption')}</caption>
            <thead className={tableHeadClasses}>
              <tr>
                <HeaderCell>{t('admin.audit.when')}</HeaderCell>
                <HeaderCell>{t('admin.audit.event')}</HeaderCell>
                <HeaderCell>{t('admin.audit.by')}</HeaderCell>
                <HeaderCell>{t('admin.audit.about')}</HeaderCell>
                <HeaderCell>{t('admin.audit.details')}</HeaderCell>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200 text-slate-800 dark:divide-slate-800 dark:text-slate-200">
              {events.map((e) => (
                <tr key={e.id}>
                  <td className="px-4 py-2 whitespace-nowrap">
                    <time dateTime={e.at}>{fullDateTime(e.at)}</time>
                  </td>
                  <td className="px-4 py-2">
                    {AUDIT_TYPE_IDS[e.type] && <span className="block">{label(e.type)}</span>}
                    <span
                      dir="ltr"
                      translate="no"
                      className="font-mono text-xs text-slate-600 dark:text-slate-400"
                    >
                      {e.type}
                    </span>
                  </td>
                  <td className="px-4 py-2">
                    <Who person={e.actor} />
                  </td>
                  <td className="px-4 py-2">
                    <Who person={e.target} />
                  </td>
                  <td className="px-4 py-2 break-all text-slate-600 dark:text-slate-400">
                    <Details detail={e.detail} />
                  </td>
                </tr>
              ))}
              {events.length === 0 && (
                <tr>
                  <td colSpan={5} className="px-4 py-8 text-center text-slate-600 dark:text-slate-400">
                    {t('admin.audit.none')}
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
            {t('admin.audit.older')}
          </Button>
        </div>
      )}
    </Card>
  );
}
