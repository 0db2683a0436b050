import { randomBytes } from 'node:crypto';
import {
  CHANNEL_TEXT,
  type ChatDetail,
  GROUP_INVITE_AUDIT,
  GROUP_INVITE_INVALID,
  type GroupInvite,
  type GroupInviteCreate,
  type GroupInvitePreview,
  isAdminRole,
} from '@parley/protocol';
import { ForbiddenError, NotFoundError } from '../../platform/errors';
import type { RateLimiter } from '../../platform/rate-limit';
import { enforceLimit } from '../../platform/rate-limit-policy';
import { avatarUrl } from '../accounts/user-view';
import type { AuditService } from '../audit/audit.service';
import { isPublicGroup } from './chat-membership';
import { requireGroupAdmin, requireGroupMember } from './group-access';
import { type GroupJoinDeps, joinGroup } from './group-join';
import * as repo from './invites.repo';

interface Deps extends GroupJoinDeps {
  audit: AuditService;
  limiter: RateLimiter;
}

const HOUR_MS = 60 * 60_000;
/** Per person: opening join pages, and joining through links. A code is 128 random bits, so these only stop floods. */
export const INVITE_PREVIEWS_PER_HOUR = 120;
export const INVITE_ACCEPTS_PER_HOUR = 30;

const newCode = () => randomBytes(16).toString('base64url');
const nowIso = () => new Date().toISOString();

/**
 * Group invite links: admins (and any member of a public group) make and list them, admins revoke them, and
 * anyone signed in who holds a usable code sees the group and joins it, a private group too. A group's links
 * are as invisible to outsiders as the group: 404. Joining through a link is joining a public group (joinGroup).
 */
export class GroupInvitesService {
  constructor(private readonly deps: Deps) {}

  /**
   * The group and the caller's membership, when they may make and see its links: its owner and admins, and in
   * a public group (which anyone may join anyway) any member, an announcement channel's too.
   */
  private async requireInviter(userId: number, chatId: string) {
    const found = await requireGroupMember(this.deps.chats, userId, chatId);
    if (!isPublicGroup(found.chat) && !isAdminRole(found.member.role))
      throw new ForbiddenError(CHANNEL_TEXT.onlyAdmins);
    return found;
  }

  async create(
    userId: number,
    chatId: string,
    input: GroupInviteCreate,
    origin: string,
  ): Promise<GroupInvite> {
    const { chat } = await this.requireInviter(userId, chatId);
    const now = Date.now();
    const row = {
      chat_id: chat.id,
      code: newCode(),
      created_by: userId,
      created_at: new Date(now).toISOString(),
      expires_at: input.expires_in_hours
        ? new Date(now + input.expires_in_hours * HOUR_MS).toISOString()
        : null,
      max_uses: input.max_uses ?? null,
    };
    await this.deps.db.transaction().execute(async (trx) => {
      const id = await repo.insertInvite(trx, row);
      await this.deps.audit.record(
        {
          type: GROUP_INVITE_AUDIT.created,
          actor_id: userId,
          detail: {
            chat_id: chatId,
            invite_id: id,
            expires_in_hours: input.expires_in_hours ?? null,
            max_uses: row.max_uses,
          },
        },
        trx,
      );
    });
    return toInvite({ ...row, uses: 0 }, origin);
  }

  async list(userId: number, chatId: string, origin: string): Promise<GroupInvite[]> {
    const { chat } = await this.requireInviter(userId, chatId);
    return (await repo.usableInvitesOf(this.deps.db, chat.id, nowIso())).map((r) => toInvite(r, origin));
  }

  async revoke(userId: number, chatId: string, code: string): Promise<void> {
    const { chat } = await requireGroupAdmin(this.deps.chats, userId, chatId);
    await this.deps.db.transaction().execute(async (trx) => {
      const id = await repo.revokeInvite(trx, chat.id, code, nowIso());
      if (id === null) throw new NotFoundError(GROUP_INVITE_INVALID);
      await this.deps.audit.record(
        { type: GROUP_INVITE_AUDIT.revoked, actor_id: userId, detail: { chat_id: chatId, invite_id: id } },
        trx,
      );
    });
  }

  async preview(userId: number, code: string): Promise<GroupInvitePreview> {
    await enforceLimit(this.deps.limiter, `invite-preview:${userId}`, INVITE_PREVIEWS_PER_HOUR, HOUR_MS);
    // One 404 for revoked, expired, used up and unknown.
    const chat = await repo.findInvite(this.deps.db, code, nowIso());
    if (!chat) throw new NotFoundError(GROUP_INVITE_INVALID);
    return {
      chat_id: chat.chat_id,
      group_name: chat.name,
      avatar: avatarUrl(chat.avatar),
      member_count: await repo.memberCountOf(this.deps.db, chat.id),
      visibility: chat.visibility,
    };
  }

  /**
   * Joins the group through a link as joinGroup joins (a member already in the group uses nothing, whatever the
   * link's state: their second accept may come after their first took its last use). The use is counted by one
   * conditional update inside the joining transaction, which decides a race for the last use.
   */
  async accept(userId: number, code: string): Promise<ChatDetail> {
    await enforceLimit(this.deps.limiter, `invite-accept:${userId}`, INVITE_ACCEPTS_PER_HOUR, HOUR_MS);
    const chat = await repo.findInvite(this.deps.db, code, null);
    if (!chat) throw new NotFoundError(GROUP_INVITE_INVALID);
    return joinGroup(this.deps, userId, chat, async (trx) => {
      if (!(await repo.useInvite(trx, chat.invite_id, nowIso())))
        throw new NotFoundError(GROUP_INVITE_INVALID);
    });
  }
}

function toInvite(
  r: { code: string; expires_at: string | null; max_uses: number | null; uses: number },
  origin: string,
): GroupInvite {
  return {
    code: r.code,
    url: `${origin}/join/${r.code}`,
    expires_at: r.expires_at,
    max_uses: r.max_uses,
    uses: r.uses,
  };
}
