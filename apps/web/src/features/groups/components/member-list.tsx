import {
  type ChatMember,
  DELETED_USERNAME,
  isAdminRole,
  type MemberRole,
  memberNameOf,
} from '@parley/protocol';
import { BadgeCheck, UserMinus } from 'lucide-react';
import { Link } from 'react-router';
import { Avatar } from '../../../components/avatar';
import { BlockButton } from '../../../components/block-button';
import { SoftwareBadge } from '../../../components/software-badge';
import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n/i18n';
import { ROLE_BADGE, type RoleAction, roleActions } from '../lib/member-roles';
import { MemberRoleMenu } from './member-role-menu';

const profilePath = (m: ChatMember, meId: number) =>
  m.id === meId ? '/profile' : `/user/${encodeURIComponent(m.username)}`;

/** The owner's and the admins' say over the members' roles: the viewer's role and what a choice in a menu does. */
export interface RoleControls {
  viewerRole: MemberRole | null;
  onAction: (member: ChatMember, action: RoleAction) => void;
  /** The member whose role is being changed, while the call runs. */
  busyId: number | null;
}

/**
 * The group's members (scrollable, at most 20rem tall): picture, name, @username, an 'Owner' or 'Admin' badge,
 * and for the admins' screen a Remove button beside every plain member and a menu of role changes.
 */
export function MemberList({
  members,
  meId,
  labelledBy,
  onRemove,
  removingId,
  roles,
}: {
  members: ChatMember[];
  meId: number;
  labelledBy: string;
  onRemove?: (member: ChatMember) => void;
  removingId?: number | null;
  roles?: RoleControls;
}) {
  const t = useT();
  return (
    <ul
      aria-labelledby={labelledBy}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a long list scrolls, so the keyboard must reach it.
      tabIndex={0}
      className="max-h-80 divide-y divide-slate-100 dark:divide-slate-800 overflow-y-auto rounded-xl border border-slate-200 dark:border-slate-800"
      data-testid="member-list"
    >
      {members.map((m) => {
        const name = memberNameOf(m);
        const deleted = m.username === DELETED_USERNAME || m.id === null;
        const badge = ROLE_BADGE[m.role];
        const actions = roles ? roleActions(roles.viewerRole, meId, m) : [];
        const canBlock = !deleted && m.id !== meId;
        const canRemove = onRemove && !isAdminRole(m.role) && m.id !== null;
        const hasMenu = roles && actions.length > 0 && m.id !== null;
        return (
          <li
            key={m.id ?? `deleted-${m.username}`}
            className="flex flex-wrap items-center gap-x-3 gap-y-1.5 px-3 py-2.5"
          >
            <Avatar src={deleted ? null : m.avatar} name={name} size="md" />
            <div className="min-w-0 flex-1">
              <p className="flex items-center gap-1.5 text-sm font-medium text-slate-900 dark:text-slate-100">
                {deleted ? (
                  <span translate="no" className="truncate">
                    {name}
                  </span>
                ) : (
                  <Link to={profilePath(m, meId)} translate="no" className="truncate rounded hover:underline">
                    {name}
                  </Link>
                )}
                {m.is_blue_verified && !deleted && (
                  <BadgeCheck
                    role="img"
                    aria-label={t('room.header.verified')}
                    className="size-4 shrink-0 text-sky-500"
                  />
                )}
                {m.is_bot && <SoftwareBadge label="Bot" />}
                {m.id === meId && (
                  <span className="shrink-0 text-xs font-normal text-slate-500 dark:text-slate-400">
                    {t('groups.members.you')}
                  </span>
                )}
              </p>
              {!deleted && (
                <p className="truncate text-xs text-slate-500 dark:text-slate-400">
                  <span dir="ltr" translate="no" className="inline-block max-w-full truncate align-bottom">
                    @{m.username}
                  </span>
                </p>
              )}
            </div>
            {badge && (
              <span className="shrink-0 rounded-full bg-brand-50 dark:bg-brand-500/15 px-2 py-0.5 text-xs font-medium text-brand-700 dark:text-brand-200">
                {t(badge)}
              </span>
            )}
            {/* On a phone the buttons take a line of their own under the name, which keeps its room. */}
            {(canBlock || canRemove || hasMenu) && (
              <div className="flex w-full items-center justify-end gap-2 sm:w-auto">
                {canBlock && (
                  <BlockButton
                    username={m.username}
                    name={name}
                    size="sm"
                    variant="ghost"
                    className="shrink-0"
                  />
                )}
                {canRemove && (
                  <Button
                    variant="secondary"
                    size="sm"
                    aria-label={t('groups.members.removeName', { name })}
                    loading={removingId === m.id}
                    disabled={removingId != null && removingId !== m.id}
                    onClick={() => onRemove?.(m)}
                    className="shrink-0"
                  >
                    <UserMinus aria-hidden="true" className="size-4" />
                    {t('groups.members.remove')}
                  </Button>
                )}
                {hasMenu && (
                  <MemberRoleMenu
                    name={name}
                    actions={actions}
                    busy={roles.busyId === m.id}
                    onAction={(action) => roles.onAction(m, action)}
                  />
                )}
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
