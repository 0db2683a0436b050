import { randomBytes } from 'node:crypto';
import {
  type ChatDetail,
  DELETED_DISPLAY_NAME,
  displayNameOf,
  GROUP_INVITE_AUDIT,
  GROUP_INVITE_INVALID,
  type GroupInvite,
  type GroupInviteCreate,
  type GroupInvitePreview,
} from '@parley/protocol';
import type { Db } from '../../db/database';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../platform/errors';
import type { DomainEvents } from '../../platform/events';
import type { RateLimiter } from '../../platform/rate-limit';
import { enforceLimit } from '../../platform/rate-limit-policy';
import { avatarUrl } from '../accounts/user-view';
import type { UsersService } from '../accounts/users.service';
import type { AuditService } from '../audit/audit.service';
import * as chatsRepo from './chats.repo';
import type { ChatsService } from './chats.service';
import type { GroupAnnouncer } from './groups.service';
import * as repo from './invites.repo';

interface Deps {
  db: Db;
  events: DomainEvents;
  chats: ChatsService;
  announcer: GroupAnnouncer;
  users: UsersService;
  audit: AuditService;
  limiter: RateLimiter;
}

const HOUR_MS = 60 * 60_000;
/** Per person: opening join pages, and joining through links. A code is 128 random bits, so these only stop floods. */
export const INVITE_PREVIEWS_PER_HOUR = 120;
export const INVITE_ACCEPTS_PER_HOUR = 30;

const newCode = () => randomBytes(16).toString('base64url');
const nowIso = () => new Date().toISOString();

/** A group is public once groups have a visibility and it says so; every group before that is private. */
const visibilityOf = (chat: object): GroupInvitePreview['visibility'] =>
  'visibility' in chat && chat.visibility === 'public' ? 'public' : 'private';

/** Anyone above a plain member (the admin, and the owner where groups have one) manages the group's links. */
const isGroupAdmin = (role: string) => role !== 'member';

/**
 * Group invite links: admins (and any member of a public group) make and list them, admins revoke them, and
 * anyone signed in who holds a usable code sees the group and joins it, a private group too. A group's links
 * are as invisible to outsiders as the group: 404. Joining is told in the group as an added member is.
 */
export class GroupInvitesService {
  constructor(private readonly deps: Deps) {}

  /** The group and the caller's membership, when they may make and see its links. */
  private async requireInviter(userId: number, chatId: string) {
    const found = await this.deps.chats.requireMember(userId, chatId);
    if (found.chat.is_private) throw new BadRequestError('This is a private chat, not a group.');
    if (!isGroupAdmin(found.member.role) && visibilityOf(found.chat) !== 'public')
      throw new ForbiddenError('Only the group admin can do this.');
    return found;
  }

  private async requireAdmin(userId: number, chatId: string) {
    const found = await this.deps.chats.requireMember(userId, chatId);
    if (found.chat.is_private) throw new BadRequestError('This is a private chat, not a group.');
    if (!isGroupAdmin(found.member.role)) throw new ForbiddenError('Only the group admin can do this.');
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
    const { chat } = await this.requireAdmin(userId, chatId);
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
      visibility: visibilityOf(chat),
    };
  }

  /**
   * Joins the group through a link and counts one use, in one transaction whose conditional update decides a
   * race for the last use. A member already in the group joins nothing and uses nothing, whatever the link's
   * state (their second accept may come after their first took its last use).
   */
  async accept(userId: number, code: string): Promise<ChatDetail> {
    await enforceLimit(this.deps.limiter, `invite-accept:${userId}`, INVITE_ACCEPTS_PER_HOUR, HOUR_MS);
    const chat = await repo.findInvite(this.deps.db, code, null);
    if (!chat) throw new NotFoundError(GROUP_INVITE_INVALID);
    const isMember = async () => !!(await chatsRepo.findMembership(this.deps.db, chat.id, userId));
    if (await isMember()) return this.deps.chats.detailForReader(userId, chat.chat_id);
    try {
      await this.deps.db.transaction().execute(async (trx) => {
        if (!(await repo.useInvite(trx, chat.invite_id, nowIso())))
          throw new NotFoundError(GROUP_INVITE_INVALID);
        await chatsRepo.insertMember(trx, {
          chat_id: chat.id,
          user_id: userId,
          role: 'member',
          joined_at: nowIso(),
        });
      });
    } catch (err) {
      // The same person accepting twice at once: the membership's unique key kept one join, and one use.
      if (await isMember()) return this.deps.chats.detailForReader(userId, chat.chat_id);
      throw err;
    }
    const [me] = await this.deps.users.findActivated([userId]);
    const name = me ? displayNameOf({ ...me, username: me.username ?? DELETED_DISPLAY_NAME }) : 'Someone';
    await this.deps.announcer.announce(chat, `${name} joined`);
    this.deps.events.emit('chat.updated', { chatId: chat.chat_id });
    this.deps.events.emit('chats.changed', { userIds: [userId] });
    return this.deps.chats.detailForReader(userId, chat.chat_id);
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
