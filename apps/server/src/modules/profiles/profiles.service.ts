import {
  type AppStats,
  MSG,
  type ProfileListItem,
  type ProfileUpdatePayload,
  type ProfileUpdateResult,
  type PublicProfile,
} from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { AvatarStore } from '../../platform/avatars';
import { FieldsError, ForbiddenError, HttpError, NotFoundError } from '../../platform/errors';
import type { DomainEvents } from '../../platform/events';
import type { Presence } from '../../platform/presence';
import { avatarUrl, visiblePresence } from '../accounts/user-view';
import type { ProfileChanges, UsersService } from '../accounts/users.service';

interface Deps {
  users: UsersService;
  presence: Presence;
  avatars: AvatarStore;
  events: DomainEvents;
  log: FastifyBaseLogger;
  messages: { totalMessages(): Promise<number> };
  /** People a block stands between see each other offline. */
  blocks?: { relatedTo(userId: number): Promise<Set<number>> };
}

/**
 * Profile rules: who is listed, who may see a profile, and the profile update with its picture. The rows are
 * the users table's, read and written through accounts (UsersService).
 */
export class ProfilesService {
  constructor(private readonly deps: Deps) {
    // Account deletion awaits this (emitAndWait) before the row goes: the avatar's name is still there.
    deps.events.on('user.deleted', ({ userId }) => this.removeAvatarOf(userId));
  }

  /** Activated, not hidden; online people first, then by id, so the order is stable. `ids`: only these. */
  async list(ids?: number[]): Promise<ProfileListItem[]> {
    const rows = await this.deps.users.visibleProfiles(ids);
    const online = await this.deps.presence.onlineAmong(rows.filter((r) => r.online_status).map((r) => r.id));
    const items = rows.map((r) => ({
      id: r.id,
      username: r.username,
      displayname: r.displayname,
      avatar: avatarUrl(r.avatar),
      is_online: !!r.online_status && online.has(r.id),
      is_blue_verified: !!r.is_blue_verified,
      ...(r.is_bot ? { is_bot: true } : {}),
    }));
    // Array.prototype.sort is stable: within each group the id order stays.
    return items.sort((a, b) => Number(b.is_online) - Number(a.is_online));
  }

  async stats(): Promise<AppStats> {
    const [total_users, total_messages] = await Promise.all([
      this.deps.users.countActivated(),
      this.deps.messages.totalMessages(),
    ]);
    return { total_users, total_messages };
  }

  /** SPEC §3's public fields only. Hidden profiles are shown to their owner alone. */
  async publicProfile(username: string, viewerId: number | null): Promise<PublicProfile> {
    const u = await this.deps.users.publicProfile(username);
    if (!u) throw new NotFoundError('User not found');
    const own = viewerId === u.id;
    if (u.hide_profile && !own) throw new ForbiddenError('This profile is private');
    const [online, hidden] = await Promise.all([
      this.deps.presence.isOnline(u.id),
      viewerId === null || own || !this.deps.blocks ? null : this.deps.blocks.relatedTo(viewerId),
    ]);
    const shown = hidden?.has(u.id) ? { ...u, online_status: 0 } : u;
    const presence = own ? { is_online: online, last_seen: u.last_seen } : visiblePresence(shown, online);
    return {
      id: u.id,
      username: u.username,
      first_name: u.first_name,
      last_name: u.last_name,
      displayname: u.displayname,
      avatar: avatarUrl(u.avatar),
      bio: u.bio,
      location: u.location,
      date_joined: u.date_joined,
      last_seen: presence.last_seen,
      is_online: presence.is_online,
      is_blue_verified: !!u.is_blue_verified,
      ...(u.is_bot ? { is_bot: true } : {}),
    };
  }

  /**
   * Updates names, username, bio and optionally the picture. Every check runs before anything is
   * written; the new picture is stored first and removed again if the row update fails, and the old
   * one is removed only once the row points at the new one.
   */
  async update(
    userId: number,
    input: ProfileUpdatePayload,
    image: Uint8Array | null,
  ): Promise<ProfileUpdateResult> {
    const current = await this.deps.users.editableProfile(userId);
    if (!current) throw new HttpError(401, { detail: MSG.invalidToken });
    if (await this.deps.users.usernameTakenByOther(input.username, userId)) {
      throw new FieldsError({ username: [MSG.usernameTaken] });
    }
    const newAvatar = image ? await this.deps.avatars.save(image) : null;

    const changes: ProfileChanges = {
      first_name: input.first_name,
      last_name: input.last_name,
      displayname: `${input.first_name} ${input.last_name}`.trim(),
      username: input.username,
      ...(input.bio === undefined ? {} : { bio: input.bio }),
      ...(newAvatar ? { avatar: newAvatar } : {}),
    };
    let previous: string | null = current.avatar;
    try {
      // Compare-and-set on the avatar column: a concurrent upload makes us re-read and try again.
      for (let attempt = 0; ; attempt++) {
        if (await this.deps.users.updateProfileIfAvatar(userId, previous, changes)) break;
        const row = await this.deps.users.editableProfile(userId);
        if (!row) throw new HttpError(401, { detail: MSG.invalidToken });
        if (attempt >= 5) throw new Error('profile update kept racing with another update');
        previous = row.avatar;
      }
    } catch (err) {
      await this.deps.avatars.remove(newAvatar);
      // Two people racing for one name: the unique index decides.
      if (/unique|duplicate/i.test(String(err))) throw new FieldsError({ username: [MSG.usernameTaken] });
      throw err;
    }
    if (newAvatar) await this.deps.avatars.remove(previous);

    return {
      name: `${input.first_name} ${input.last_name}`.trim(),
      username: input.username,
      avatar: avatarUrl(newAvatar ?? previous),
    };
  }

  private async removeAvatarOf(userId: number): Promise<void> {
    try {
      await this.deps.avatars.remove(await this.deps.users.avatarOf(userId));
    } catch (err) {
      this.deps.log.warn({ err, userId }, 'could not remove the avatar of a deleted account');
    }
  }
}
