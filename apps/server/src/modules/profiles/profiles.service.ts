import {
  type AppStats,
  MSG,
  type ProfileListItem,
  type ProfileUpdatePayload,
  type ProfileUpdateResult,
  type PublicProfile,
} from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database';
import { FieldsError, ForbiddenError, HttpError, NotFoundError } from '../../platform/errors';
import type { DomainEvents } from '../../platform/events';
import type { Presence } from '../../platform/presence';
import { type FileStorage, randomFileName } from '../../platform/storage';
import { avatarUrl } from '../accounts/user-view';
import { AVATAR_EXTENSION, toAvatar } from './avatar-image';
import * as repo from './profiles.repo';

interface Deps {
  db: Db;
  presence: Presence;
  storage: FileStorage;
  events: DomainEvents;
  log: FastifyBaseLogger;
  chats: { totalMessages(): Promise<number> };
}

/** Avatar file names are ours alone: 22 URL-safe random characters and the extension. */
const AVATAR_NAME = new RegExp(`^[A-Za-z0-9_-]{22}\\.${AVATAR_EXTENSION}$`);
const avatarKey = (name: string) => `avatars/${name}`;

/** Presence as others see it: with online_status off a user is offline with no last-seen time. */
const visiblePresence = (u: { online_status: number; last_seen: string | null }, online: boolean) =>
  u.online_status ? { is_online: online, last_seen: u.last_seen } : { is_online: false, last_seen: null };

/** Profile rules: who is listed, who may see a profile, and the profile update with its picture. */
export class ProfilesService {
  constructor(private readonly d: Deps) {
    // Account deletion awaits this (emitAndWait) before the row goes: the avatar's name is still there.
    d.events.on('user.deleted', ({ userId }) => this.removeAvatarOf(userId));
  }

  /** Activated, not hidden; online people first, then by id, so the order is stable. */
  async list(): Promise<ProfileListItem[]> {
    const rows = await repo.listVisibleProfiles(this.d.db);
    const online = await this.d.presence.onlineAmong(rows.filter((r) => r.online_status).map((r) => r.id));
    const items = rows.map((r) => ({
      id: r.id,
      username: r.username,
      displayname: r.displayname,
      avatar: avatarUrl(r.avatar),
      is_online: !!r.online_status && online.has(r.id),
      is_blue_verified: !!r.is_blue_verified,
    }));
    // Array.prototype.sort is stable: within each group the id order stays.
    return items.sort((a, b) => Number(b.is_online) - Number(a.is_online));
  }

  async stats(): Promise<AppStats> {
    const [total_users, total_messages] = await Promise.all([
      repo.countActivatedUsers(this.d.db),
      this.d.chats.totalMessages(),
    ]);
    return { total_users, total_messages };
  }

  /** SPEC §3's public fields only. Hidden profiles are shown to their owner alone. */
  async publicProfile(username: string, viewerId: number | null): Promise<PublicProfile> {
    const u = await repo.findPublicByUsername(this.d.db, username);
    if (!u) throw new NotFoundError('User not found');
    const own = viewerId === u.id;
    if (u.hide_profile && !own) throw new ForbiddenError('This profile is private');
    const online = await this.d.presence.isOnline(u.id);
    const presence = own ? { is_online: online, last_seen: u.last_seen } : visiblePresence(u, online);
    return {
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
    const current = await repo.findEditableProfile(this.d.db, userId);
    if (!current) throw new HttpError(401, { detail: MSG.invalidToken });
    if (await repo.usernameTakenByOther(this.d.db, input.username, userId)) {
      throw new FieldsError({ username: [MSG.usernameTaken] });
    }
    const avatarBytes = image ? await toAvatar(image) : null;

    const newAvatar = avatarBytes ? randomFileName(AVATAR_EXTENSION) : null;
    if (newAvatar && avatarBytes) await this.d.storage.put(avatarKey(newAvatar), avatarBytes);

    const changes: repo.ProfileChanges = {
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
        if (await repo.updateProfileIfAvatar(this.d.db, userId, previous, changes)) break;
        const row = await repo.findEditableProfile(this.d.db, userId);
        if (!row) throw new HttpError(401, { detail: MSG.invalidToken });
        if (attempt >= 5) throw new Error('profile update kept racing with another update');
        previous = row.avatar;
      }
    } catch (err) {
      if (newAvatar) await this.removeFile(newAvatar);
      // Two people racing for one name: the unique index decides.
      if (/unique|duplicate/i.test(String(err))) throw new FieldsError({ username: [MSG.usernameTaken] });
      throw err;
    }
    if (newAvatar && previous) await this.removeFile(previous);

    return {
      name: `${input.first_name} ${input.last_name}`.trim(),
      username: input.username,
      avatar: avatarUrl(newAvatar ?? previous),
    };
  }

  /**
   * A stored avatar's bytes by its public name; null for a name we could not have made or a file that
   * is gone. Avatars are small, so they are answered from memory: the response is complete the moment
   * it is sent, never left half-streamed when the server shuts down.
   */
  readAvatar(name: string): Promise<Buffer | null> {
    if (!AVATAR_NAME.test(name)) return Promise.resolve(null);
    return this.d.storage.read(avatarKey(name));
  }

  private async removeAvatarOf(userId: number): Promise<void> {
    try {
      const name = await repo.findAvatarOf(this.d.db, userId);
      if (name) await this.removeFile(name);
    } catch (err) {
      this.d.log.warn({ err, userId }, 'could not remove the avatar of a deleted account');
    }
  }

  /** A file left behind is garbage, not a failure of the request: log it and go on. */
  private async removeFile(name: string): Promise<void> {
    try {
      await this.d.storage.delete(avatarKey(name));
    } catch (err) {
      this.d.log.warn({ err, name }, 'could not remove an avatar file');
    }
  }
}
