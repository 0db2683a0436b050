import { Link } from 'react-router';
import { Avatar } from '../../../components/avatar';
import { ErrorBanner } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { LoadingState } from '../../../components/ui/spinner';
import { serverErrorOr } from '../../../lib/http/api-error';
import { useT } from '../../../lib/i18n/i18n';
import { useBlockedPeople, useSetBlocked } from '../../../lib/queries/safety';
import { toast } from '../../../lib/ui/toast';

/** Settings' 'Blocked people': whom the person blocked, each with Unblock. */
export function BlockedPeopleSection() {
  const t = useT();
  const blocked = useBlockedPeople();
  const change = useSetBlocked();
  const people = blocked.data?.results ?? [];

  const unblock = (username: string, name: string) =>
    change.mutate(
      { username, blocked: false },
      {
        onSuccess: () => toast.success(t('settings.blocked.unblocked', { name })),
        onError: (e) => toast.error(serverErrorOr(e, t('settings.blocked.unblockFailed'))),
      },
    );

  return (
    <Card>
      <CardHeader
        id="blocked-people"
        title={t('settings.blocked.title')}
        description={t('settings.blocked.description')}
      />
      {blocked.isPending ? (
        <LoadingState label={t('settings.blocked.loading')} />
      ) : blocked.isError ? (
        <ErrorBanner className="mt-3">{t('settings.blocked.loadFailed')}</ErrorBanner>
      ) : people.length === 0 ? (
        <p className="mt-3 text-sm text-slate-500 dark:text-slate-400">{t('settings.blocked.none')}</p>
      ) : (
        <ul aria-labelledby="blocked-people" className="mt-3 divide-y divide-slate-100 dark:divide-slate-800">
          {people.map((p) => (
            <li key={p.id} className="flex items-center gap-3 py-2.5">
              <Avatar src={p.avatar} name={p.name} size="sm" />
              <div className="min-w-0 flex-1">
                <Link
                  to={`/user/${encodeURIComponent(p.username)}`}
                  translate="no"
                  className="block truncate text-sm font-medium text-slate-900 dark:text-slate-100 hover:underline"
                >
                  {p.name}
                </Link>
                <p className="truncate text-xs text-slate-500 dark:text-slate-400">
                  <span dir="ltr" translate="no" className="inline-block max-w-full truncate align-bottom">
                    @{p.username}
                  </span>
                </p>
              </div>
              <Button
                variant="secondary"
                size="sm"
                onClick={() => unblock(p.username, p.name)}
                disabled={change.isPending}
                aria-label={t('settings.blocked.unblockName', { name: p.name })}
              >
                {t('settings.blocked.unblock')}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
