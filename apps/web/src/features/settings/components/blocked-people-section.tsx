import { SAFETY_TEXT } from '@parley/protocol';
import { Link } from 'react-router';
import { Avatar } from '../../../components/avatar';
import { ErrorBanner } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { LoadingState } from '../../../components/ui/spinner';
import { serverErrorOr } from '../../../lib/http/api-error';
import { useBlockedPeople, useSetBlocked } from '../../../lib/queries/safety';
import { toast } from '../../../lib/ui/toast';

/** Settings' 'Blocked people': whom the person blocked, each with Unblock. */
export function BlockedPeopleSection() {
  const blocked = useBlockedPeople();
  const change = useSetBlocked();
  const people = blocked.data?.results ?? [];

  const unblock = (username: string, name: string) =>
    change.mutate(
      { username, blocked: false },
      {
        onSuccess: () => toast.success(`You unblocked ${name}.`),
        onError: (e) => toast.error(serverErrorOr(e, 'Failed to unblock. Please try again.')),
      },
    );

  return (
    <Card>
      <CardHeader
        id="blocked-people"
        title="Blocked people"
        description="They cannot message you, and neither of you sees the other online, typing or reading."
      />
      {blocked.isPending ? (
        <LoadingState label="Loading blocked people..." />
      ) : blocked.isError ? (
        <ErrorBanner className="mt-3">Failed to load blocked people</ErrorBanner>
      ) : people.length === 0 ? (
        <p className="mt-3 text-sm text-slate-500 dark:text-slate-400">{SAFETY_TEXT.noneBlocked}</p>
      ) : (
        <ul aria-labelledby="blocked-people" className="mt-3 divide-y divide-slate-100 dark:divide-slate-800">
          {people.map((p) => (
            <li key={p.id} className="flex items-center gap-3 py-2.5">
              <Avatar src={p.avatar} name={p.name} size="sm" />
              <div className="min-w-0 flex-1">
                <Link
                  to={`/user/${encodeURIComponent(p.username)}`}
                  className="block truncate text-sm font-medium text-slate-900 dark:text-slate-100 hover:underline"
                >
                  {p.name}
                </Link>
                <p className="truncate text-xs text-slate-500 dark:text-slate-400">@{p.username}</p>
              </div>
              <Button
                variant="secondary"
                size="sm"
                onClick={() => unblock(p.username, p.name)}
                disabled={change.isPending}
                aria-label={`Unblock ${p.name}`}
              >
                Unblock
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
