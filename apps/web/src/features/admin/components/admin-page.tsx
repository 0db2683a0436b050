import { type KeyboardEvent, type ReactNode, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { Page } from '../../../components/page';
import { ErrorBanner } from '../../../components/ui/alert';
import { LoadingState } from '../../../components/ui/spinner';
import { isApiError } from '../../../lib/http/api-error';
import { useAuth } from '../../../lib/session/auth-store';
import { cn } from '../../../lib/ui/cn';
import { useAdminStats } from '../api/admin-api';
import { AuditPanel } from './audit-panel';
import { OverviewPanel } from './overview-panel';
import { PeoplePanel } from './people-panel';
import { ReportsPanel } from './reports-panel';
import { SettingsPanel } from './settings-panel';

const TABS = [
  { id: 'overview', label: 'Overview' },
  { id: 'people', label: 'People' },
  { id: 'reports', label: 'Reports' },
  { id: 'audit', label: 'Audit log' },
  { id: 'settings', label: 'Server settings' },
] as const;
type TabId = (typeof TABS)[number]['id'];

/**
 * /admin: the operator's console. Only a site admin sees it; anyone else — signed out included —
 * gets the app's 404 page, as the admin API answers them.
 */
export function AdminPage({ notFound }: { notFound: ReactNode }) {
  const loading = useAuth((s) => s.loading);
  const signedIn = useAuth((s) => s.isAuthenticated);
  const stats = useAdminStats();
  const [params, setParams] = useSearchParams();
  const tab: TabId = TABS.some((t) => t.id === params.get('tab')) ? (params.get('tab') as TabId) : 'overview';
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
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    e.preventDefault();
    const next = (index + step + TABS.length) % TABS.length;
    select(TABS[next]?.id ?? 'overview');
    tabRefs.current[next]?.focus();
  };

  return (
    <Page
      title="Admin"
      description="Run this Parley server: people, reports, the audit log and sign-ups."
      width="lg"
    >
      <div
        role="tablist"
        aria-label="Admin sections"
        className="flex flex-wrap gap-1 rounded-xl bg-slate-100 p-1 dark:bg-slate-800"
      >
        {TABS.map((t, index) => (
          <button
            key={t.id}
            ref={(el) => {
              tabRefs.current[index] = el;
            }}
            type="button"
            role="tab"
            id={`admin-tab-${t.id}`}
            aria-selected={t.id === tab}
            aria-controls="admin-panel"
            tabIndex={t.id === tab ? 0 : -1}
            onClick={() => select(t.id)}
            onKeyDown={(e) => onKeyDown(e, index)}
            className={cn(
              'h-9 rounded-lg px-3 text-sm font-medium transition-colors',
              t.id === tab
                ? 'bg-white text-slate-900 shadow-sm dark:bg-slate-900 dark:text-slate-100'
                : 'text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white',
            )}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div id="admin-panel" role="tabpanel" aria-labelledby={`admin-tab-${tab}`} className="space-y-6">
        {stats.error && !isApiError(stats.error) ? (
          <ErrorBanner>Could not reach the server.</ErrorBanner>
        ) : null}
        {tab === 'overview' && stats.data && <OverviewPanel stats={stats.data} />}
        {tab === 'people' && <PeoplePanel />}
        {tab === 'reports' && <ReportsPanel />}
        {tab === 'audit' && <AuditPanel />}
        {tab === 'settings' && <SettingsPanel />}
      </div>
    </Page>
  );
}
