import { GROUP_INVITE_INVALID, type GroupInvitePreview } from '@parley/protocol';
import { LinkIcon, RefreshCw, TriangleAlert, UserPlus } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Link, type Location, useLocation, useNavigate, useParams } from 'react-router';
import { Avatar } from '../../../components/avatar';
import { Button, buttonClasses } from '../../../components/ui/button';
import { LoadingState } from '../../../components/ui/spinner';
import { isApiError, serverErrorOr } from '../../../lib/http/api-error';
import { type MessageId, useT } from '../../../lib/i18n/i18n';
import { knowServerTexts, localText } from '../../../lib/i18n/server-texts';
import { useAuth } from '../../../lib/session/auth-store';
import { chatPath } from '../../../lib/text/chat-path';
import { usePageTitle } from '../../../lib/ui/document-title';
import { toast } from '../../../lib/ui/toast';
import { useAcceptInvite } from '../api/accept-invite';
import { useInvite } from '../api/get-invite';

// The page's own server text: what a link no longer usable is told, in the reader's language.
knowServerTexts([[GROUP_INVITE_INVALID, 'groups.invites.invalid' satisfies MessageId]]);

/** A refusal that means the link itself is no longer usable (revoked, expired, used up, never made). */
const linkGone = (error: unknown) => isApiError(error) && error.status === 404;

/**
 * /join/{code}: a group invite link. Signed in, it shows the group (name, picture, member count) and a Join
 * button that opens the group's room; a link no longer usable says so. Signed out, it asks to sign up or log in
 * first, and both bring the person back here afterwards (the auth screens keep the location they were sent from,
 * through the email verification too).
 */
export function JoinPage() {
  const { code = '' } = useParams();
  const location = useLocation();
  const loading = useAuth((s) => s.loading);
  const signedIn = useAuth((s) => s.isAuthenticated);
  if (loading) return <LoadingState fullPage />;
  if (!signedIn) return <SignInFirst from={location} />;
  return <Invite key={code} code={code} />;
}

function Invite({ code }: { code: string }) {
  const invite = useInvite(code);
  const accept = useAcceptInvite();
  const navigate = useNavigate();
  /** The link stopped working between its preview and the Join button (revoked, used up meanwhile). */
  const [gone, setGone] = useState(false);
  const t = useT();

  if (invite.isPending) return <LoadingState label={t('groups.join.loading')} fullPage />;
  if (gone || (invite.isError && linkGone(invite.error))) return <InvalidLink />;
  if (invite.isError)
    return (
      <Frame title={t('groups.join.pageTitle')}>
        <div role="alert" className="flex flex-col items-center text-center">
          <TriangleAlert aria-hidden="true" className="mb-3 size-10 text-amber-500" />
          <h1 className="text-lg font-semibold text-slate-900 dark:text-slate-100">
            {serverErrorOr(invite.error, t('groups.join.loadFailed'))}
          </h1>
          <Button className="mt-5" onClick={() => void invite.refetch()} loading={invite.isFetching}>
            {!invite.isFetching && <RefreshCw aria-hidden="true" className="size-4" />}
            {t('profile.tryAgain')}
          </Button>
        </div>
      </Frame>
    );

  const join = () =>
    accept.mutate(code, {
      onSuccess: (detail) => void navigate(chatPath(detail), { replace: true }),
      onError: (e) => {
        if (linkGone(e)) setGone(true);
        else toast.error(serverErrorOr(e, t('groups.join.failed')));
      },
    });

  return (
    <Frame title={t('groups.join.title', { name: invite.data.group_name })}>
      <GroupCard group={invite.data}>
        <Button size="lg" className="mt-6 w-full" onClick={join} loading={accept.isPending}>
          {!accept.isPending && <UserPlus aria-hidden="true" className="size-5" />}
          {t('groups.join.button')}
        </Button>
        <Link
          to="/chats"
          className="mt-3 rounded text-sm font-medium text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white"
        >
          {t('groups.join.notNow')}
        </Link>
      </GroupCard>
    </Frame>
  );
}

function GroupCard({ group, children }: { group: GroupInvitePreview; children: ReactNode }) {
  const t = useT();
  const kind = group.visibility === 'public' ? t('groups.kind.public') : t('groups.kind.private');
  return (
    <div className="flex flex-col items-center text-center">
      <Avatar src={group.avatar} group size="2xl" />
      <p className="mt-4 text-sm text-slate-600 dark:text-slate-400">{t('groups.join.invitedTo')}</p>
      <h1
        translate="no"
        className="mt-1 text-2xl font-semibold tracking-tight break-words text-slate-900 dark:text-slate-100"
      >
        {group.group_name}
      </h1>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400" data-testid="invite-members">
        {t('groups.join.summary', {
          members: t('groups.members.count', { count: group.member_count }),
          kind,
        })}
      </p>
      {children}
    </div>
  );
}

function InvalidLink() {
  const t = useT();
  return (
    <Frame title={t('groups.join.pageTitle')}>
      <div className="flex flex-col items-center text-center">
        <LinkIcon aria-hidden="true" className="mb-3 size-10 text-slate-400" />
        <h1 className="text-lg font-semibold text-slate-900 dark:text-slate-100">
          {localText(GROUP_INVITE_INVALID)}
        </h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t('groups.join.askAgain')}</p>
        <Link to="/chats" className={buttonClasses('secondary', 'md', 'mt-5')}>
          {t('groups.join.backToChats')}
        </Link>
      </div>
    </Frame>
  );
}

/** Signed out: sign up or log in first, each coming back to `from` afterwards. */
export function SignInFirst({ from }: { from: Location }) {
  // The auth screens send the person back to `from` once they are in.
  const state = { from };
  const t = useT();
  return (
    <Frame title={t('groups.join.joinAGroup')}>
      <div className="flex flex-col items-center text-center">
        <span className="mb-4 inline-flex size-14 items-center justify-center rounded-2xl bg-brand-50 text-brand-600 dark:bg-brand-500/15 dark:text-brand-300">
          <UserPlus aria-hidden="true" className="size-7" />
        </span>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900 dark:text-slate-100">
          {t('groups.join.invitedToGroup')}
        </h1>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{t('groups.join.signInFirst')}</p>
        <div className="mt-6 grid w-full gap-2 sm:grid-cols-2">
          <Link to="/register" state={state} className={buttonClasses('primary', 'lg')}>
            {t('groups.join.signUp')}
          </Link>
          <Link to="/login" state={state} className={buttonClasses('secondary', 'lg')}>
            {t('groups.join.logIn')}
          </Link>
        </div>
      </div>
    </Frame>
  );
}

/** The page around the one card, with its tab title. */
function Frame({ title, children }: { title: string; children: ReactNode }) {
  usePageTitle(title);
  return (
    <div className="flex flex-1 flex-col items-center px-4 py-10 sm:py-16">
      <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
        {children}
      </div>
    </div>
  );
}
