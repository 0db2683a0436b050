import { type KeyboardEvent, type ReactNode, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { Page } from '../../../components/page';
import { ErrorBanner } from '../../../components/ui/alert';
import { LoadingState } from '../../../components/ui/spinner';
import { isApiError } from '../../../lib/http/api-error';
import { type MessageId, useT } from '../../../lib/i18n/i18n';
import { useAuth } from '../../../lib/session/auth-store';
import { cn } from '../../../lib/ui/cn';
import { useAdminStats } from '../api/admin-api';
import '../lib/admin-texts';
import { AuditPanel } from './audit-panel';
import { OverviewPanel } from './overview-panel';
import { PeoplePanel } from './people-panel';
import { ReportsPanel } from './reports-panel';
import { SettingsPanel } from './settings-panel';

const TABS = [
  { id: 'overview', label: 'admin.tab.overview' },
  { id: 'people', label: 'admin.tab.people' },
  { id: 'reports', label: 'admin.tab.reports' },
  { id: 'audit', label: 'admin.tab.audit' },
  { id: 'settings', label: 'admin.tab.settings' },
] as const satisfies ReadonlyArray<{ id: string; label: MessageId }>;
type TabId = (typeof TABS)[number]['id'];

/**
 * /admin: the operator's console. Only a site admin sees it; anyone else — signed out included —
 * gets the app's 404 page, as the admin API answers them.
 */
export function AdminPage({ notFound }: { notFound: ReactNode }) {
  const t = useT();
  const loading = useAuth((s) => s.loading);
  const signedIn = useAuth((s) => s.isAuthenticated);
  const stats = useAdminStats();
  const [params, setParams] = useSearchParams();
  const tab: TabId = TABS.some((item) => item.id === params.get('tab'))
    ? (params.get('tab') as TabId)
    : 'overview';
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);

  if (loading || (signedIn && stats.isPending)) return <LoadingState fullPage />;
  if (!signedIn || (isApiError(stats.error) && stats.error.status === 404)) return notFound;

  const select = (id: TabId) =>
    setParams(
      (p) => {
        p.set('tab', id);
        return p;
      },
      { replace: true },
    );
  const onKeyDown = (e: KeyboardEvent, index: number) => {
    // The tabs run from the start edge: right to left, ArrowLeft goes on to the next.
    const forward = getComputedStyle(e.currentTarget).direction === 'rtl' ? 'ArrowLeft' : 'ArrowRight';
    const back = forward === 'ArrowRight' ? 'ArrowLeft' : 'ArrowRight';
    const step = e.key === forward ? 1 : e.key === back ? -1 : 0;
    if (!step) return;
    e.preventDefault();
    const next = (index + step + TABS.length) % TABS.length;
    select(TABS[next]?.id ?? 'overview');
    tabRefs.current[next]?.focus();
  };

  return (
    <Page title={t('admin.title')} description={t('admin.description')} width="lg">
      <div
        role="tablist"
        aria-label={t('admin.tabs')}
        className="flex flex-wrap gap-1 rounded-xl bg-slate-100 p-1 dark:bg-slate-800"
      >
        {TABS.map((item, index) => (
          <button
            key={item.id}
            ref={(el) => {
              tabRefs.current[index] = el;
            }}
            type="button"
            role="tab"
            id={`admin-tab-${item.id}`}
            aria-selected={item.id === tab}
            aria-controls="admin-panel"
            tabIndex={item.id === tab ? 0 : -1}
            onClick={() => select(item.id)}
            onKeyDown={(e) => onKeyDown(e, index)}
            className={cn(
              'h-9 rounded-lg px-3 text-sm font-medium transition-colors',
              item.id === tab
                ? 'bg-white text-slate-900 shadow-sm dark:bg-slate-900 dark:text-slate-100'
                : 'text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white',
            )}
          >
            {t(item.label)}
          </button>
        ))}
      </div>
      <div id="admin-panel" role="tabpanel" aria-labelledby={`admin-tab-${tab}`} className="space-y-6">
        {stats.error && !isApiError(stats.error) ? <ErrorBanner>{t('admin.unreachable')}</ErrorBanner> : null}
        {tab === 'overview' && stats.data && <OverviewPanel stats={stats.data} />}
        {tab === 'people' && <PeoplePanel />}
        {tab === 'reports' && <ReportsPanel />}
        {tab === 'audit' && <AuditPanel />}
        {tab === 'settings' && <SettingsPanel />}
      </div>
    </Page>
  );
}
