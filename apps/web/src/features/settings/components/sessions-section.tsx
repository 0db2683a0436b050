import type { SessionInfo } from '@parley/protocol';
import { Monitor, Smartphone, Tablet } from 'lucide-react';
import { Fragment, type ReactNode } from 'react';
import { ErrorBanner } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { LoadingState } from '../../../components/ui/spinner';
import { serverErrorOr } from '../../../lib/http/api-error';
import { useT } from '../../../lib/i18n/i18n';
import { localText, serverTextId } from '../../../lib/i18n/server-texts';
import { SLOT, Slotted } from '../../../lib/i18n/slotted';
import { fullDateTime } from '../../../lib/text/locale-format';
import { toast } from '../../../lib/ui/toast';
import { useSessions } from '../api/list-sessions';
import { useRevokeOtherSessions } from '../api/revoke-other-sessions';
import { useRevokeSession } from '../api/revoke-session';
import '../lib/account-texts';

const ICONS = { Mobile: Smartphone, Tablet } as const;
// Where a session's browser and system go in its translated name.
const BROWSER = '\u2063';
const OS = '\u2064';

/** A translated text with elements where its markers are, in the order the translation puts them. */
function Placed({ text, parts }: { text: string; parts: Record<string, ReactNode> }) {
  const pieces = text.split(new RegExp(`(${Object.keys(parts).join('|')})`));
  return (
    <>
      {pieces.map((piece, i) => (
        <Fragment key={`${i}${piece}`}>{parts[piece] ?? piece}</Fragment>
      ))}
    </>
  );
}

/** A word the server names a session by: in the reader's language when Parley knows it, else as sent (a
 * browser's or a system's own name). */
function Named({ text }: { text: string }) {
  return serverTextId(text) ? (
    localText(text)
  ) : (
    <span translate="no" dir="ltr">
      {text}
    </span>
  );
}

function SessionRow({ session }: { session: SessionInfo }) {
  const t = useT();
  const revoke = useRevokeSession();
  const Icon = ICONS[session.device as keyof typeof ICONS] ?? Monitor;
  const name = t('account.sessions.name', { browser: localText(session.browser), os: localText(session.os) });
  const signedIn = fullDateTime(session.created_at);
  return (
    <li className="flex items-center gap-3 py-3">
      <Icon aria-hidden="true" className="size-5 shrink-0 text-slate-500 dark:text-slate-400" />
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium text-slate-900 dark:text-slate-100">
          <Placed
            text={t('account.sessions.name', { browser: BROWSER, os: OS })}
            parts={{ [BROWSER]: <Named text={session.browser} />, [OS]: <Named text={session.os} /> }}
          />
          {session.current && (
            <span className="ms-2 rounded-full bg-green-100 px-2 py-0.5 text-xs font-medium text-green-800 dark:bg-green-950 dark:text-green-300">
              {t('account.sessions.thisDevice')}
            </span>
          )}
        </p>
        <p className="text-xs text-slate-600 dark:text-slate-400">
          <Named text={session.device} />
          {session.ip && (
            <>
              {' · '}
              <span translate="no" dir="ltr">
                {session.ip}
              </span>
            </>
          )}
          {' · '}
          <Slotted text={t('account.sessions.signedIn', { time: SLOT })}>
            <time dateTime={session.created_at}>{signedIn}</time>
          </Slotted>
          {' · '}
          <Slotted text={t('account.sessions.lastActive', { time: SLOT })}>
            <time dateTime={session.last_active}>{fullDateTime(session.last_active)}</time>
          </Slotted>
        </p>
      </div>
      {!session.current && (
        <Button
          variant="secondary"
          size="sm"
          loading={revoke.isPending}
          aria-label={t('account.sessions.signOutLabel', { name, time: signedIn })}
          onClick={() =>
            revoke.mutate(session.id, {
              onSuccess: () => toast.success(t('account.sessions.signedOut')),
              onError: (error) => toast.error(serverErrorOr(error, t('account.sessions.signOutFailed'))),
            })
          }
        >
          {t('account.sessions.signOut')}
        </Button>
      )}
    </li>
  );
}

/** Settings: where the person is signed in, with a way to sign out any other session or all of them. */
export function SessionsSection() {
  const t = useT();
  const sessions = useSessions();
  const revokeOthers = useRevokeOtherSessions();
  const others = sessions.data?.filter((s) => !s.current).length ?? 0;
  return (
    <Card>
      <CardHeader title={t('account.sessions.title')} description={t('account.sessions.description')} />
      {sessions.isPending ? (
        <LoadingState label={t('account.sessions.loading')} />
      ) : sessions.isError ? (
        <ErrorBanner>{t('account.sessions.loadFailed')}</ErrorBanner>
      ) : (
        <>
          <ul
            aria-label={t('account.sessions.list')}
            className="divide-y divide-slate-100 dark:divide-slate-800"
          >
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
                onSuccess: (count) => toast.success(t('account.sessions.othersSignedOut', { count })),
                onError: (error) => toast.error(serverErrorOr(error, t('account.sessions.othersFailed'))),
              })
            }
          >
            {t('account.sessions.signOutOthers')}
          </Button>
        </>
      )}
    </Card>
  );
}
