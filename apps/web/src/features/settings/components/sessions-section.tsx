import type { SessionInfo } from '@parley/protocol';
import { Monitor, Smartphone, Tablet } from 'lucide-react';
import { ErrorBanner } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { LoadingState } from '../../../components/ui/spinner';
import { serverErrorOr } from '../../../lib/http/api-error';
import { toast } from '../../../lib/ui/toast';
import { useSessions } from '../api/list-sessions';
import { useRevokeOtherSessions } from '../api/revoke-other-sessions';
import { useRevokeSession } from '../api/revoke-session';

const ICONS = { Mobile: Smartphone, Tablet } as const;
const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function SessionRow({ session }: { session: SessionInfo }) {
  const revoke = useRevokeSession();
  const Icon = ICONS[session.device as keyof typeof ICONS] ?? Monitor;
  const name = `${session.browser} on ${session.os}`;
  return (
    <li className="flex items-center gap-3 py-3">
      <Icon aria-hidden="true" className="size-5 shrink-0 text-slate-500 dark:text-slate-400" />
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium text-slate-900 dark:text-slate-100">
          {name}
          {session.current && (
            <span className="ms-2 rounded-full bg-green-100 px-2 py-0.5 text-xs font-medium text-green-800 dark:bg-green-950 dark:text-green-300">
              This device
            </span>
          )}
        </p>
        <p className="text-xs text-slate-600 dark:text-slate-400">
          {session.device}
          {session.ip ? ` · ${session.ip}` : ''} · Signed in {when(session.created_at)} · Last active{' '}
          {when(session.last_active)}
        </p>
      </div>
      {!session.current && (
        <Button
          variant="secondary"
          size="sm"
          loading={revoke.isPending}
          aria-label={`Sign out ${name}, signed in ${when(session.created_at)}`}
          onClick={() =>
            revoke.mutate(session.id, {
              onSuccess: () => toast.success('Session signed out'),
              onError: (error) => toast.error(serverErrorOr(error, 'Failed to sign out the session')),
            })
          }
        >
          Sign out
        </Button>
      )}
    </li>
  );
}

/** Settings: where the person is signed in, with a way to sign out any other session or all of them. */
export function SessionsSection() {
  const sessions = useSessions();
  const revokeOthers = useRevokeOtherSessions();
  const others = sessions.data?.filter((s) => !s.current).length ?? 0;
  return (
    <Card>
      <CardHeader
        title="Sessions"
        description="Where you are signed in. Sign out anything you do not recognise."
      />
      {sessions.isPending ? (
        <LoadingState label="Loading sessions..." />
      ) : sessions.isError ? (
        <ErrorBanner>Failed to load sessions</ErrorBanner>
      ) : (
        <>
          <ul aria-label="Signed-in sessions" className="divide-y divide-slate-100 dark:divide-slate-800">
            {sessions.data.map((s) => (
              <SessionRow key={s.id} session={s} />
            ))}
          </ul>
          <Button
            variant="secondary"
            className="mt-3"
            disabled={others === 0}
            loading={revokeOthers.isPending}
            onClick={() =>
              revokeOthers.mutate(undefined, {
                onSuccess: (n) =>
                  toast.success(n === 1 ? '1 session signed out' : `${n} sessions signed out`),
                onError: (error) =>
                  toast.error(serverErrorOr(error, 'Failed to sign out the other sessions')),
              })
            }
          >
            Sign out all other sessions
          </Button>
        </>
      )}
    </Card>
  );
}
