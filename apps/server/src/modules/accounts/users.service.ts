import { randomBytes } from 'node:crypto';
import { MAX_DB_ID } from '@parley/protocol';
import type { Db } from '../../db/database';
import { visiblePresence } from './user-view';
import * as usersRepo from './users.repo';

export type { ProfileChanges, UserCard } from './users.repo';

/**
 * The users table for every other module: accounts owns it, so chats, groups, profiles and notifications ask
 * here instead of querying it themselves. Rules stay with the caller (who may see a profile, who gets a mail);
 * this only reads and writes.
 */
export class UsersService {
  constructor(private readonly db: Db) {}

  /** What messages and member lists show of these people, in one query; [] for []. */
  cards(userIds: number[]): Promise<usersRepo.UserCard[]> {
    return usersRepo.cards(this.db, userIds);
  }

  /** Activated users by username (case-insensitive) or numeric id; unknown or unactivated ones are left out. */
  findActivated(targets: (string | number)[]) {
    return usersRepo.findActivated(this.db, targets.filter(canName));
  }

  /** An activated user named by username first (usernames may be all digits), then by numeric id. */
  async activatedIdOf(target: string): Promise<number | undefined> {
    if (!canName(target)) return undefined;
    return (
      (await usersRepo.activatedByUsername(this.db, target)) ??
      (/^\d{1,10}$/.test(target) && Number(target) <= MAX_DB_ID
        ? await usersRepo.activatedById(this.db, Number(target))
        : undefined)
    );
  }

  /** Activated people who have not hidden their profile, by id. */
  /** Activated people who do not hide their profile; only these ids when given. */
  visibleProfiles(ids?: number[]) {
    return usersRepo.listVisibleProfiles(this.db, ids);
  }

  countActivated(): Promise<number> {
    return usersRepo.countActivatedUsers(this.db);
  }

  /** An activated user's public columns (and the switches that decide who may see them). */
  async publicProfile(username: string) {
    if (!canName(username)) return undefined;
    return usersRepo.findPublicByUsername(this.db, username);
  }

  /** The columns a profile update reads and changes. */
  editableProfile(userId: number) {
    return usersRepo.findEditableProfile(this.db, userId);
  }

  usernameTakenByOther(username: string, userId: number): Promise<boolean> {
    return usersRepo.usernameTakenByOther(this.db, username, userId);
  }

  /** The profile changes, applied only while the avatar is still `expectedAvatar`; false if it moved on. */
  updateProfileIfAvatar(
    userId: number,
    expectedAvatar: string | null,
    changes: usersRepo.ProfileChanges,
  ): Promise<boolean> {
    return usersRepo.updateProfileIfAvatar(this.db, userId, expectedAvatar, changes);
  }

  avatarOf(userId: number): Promise<string | null> {
    return usersRepo.findAvatarOf(this.db, userId);
  }

  /**
   * A bot's user row: activated, with no password (sign-in treats it as unknown) and an address under the
   * reserved .invalid domain, which no mail reaches and nobody can sign up with. The username must be free.
   */
  async createBot(bot: { username: string; name: string }, db: Db = this.db): Promise<number> {
    return usersRepo.insertUser(db, {
      username: bot.username,
      email: `bot-${randomBytes(12).toString('hex')}@bots.invalid`,
      password_hash: '!',
      first_name: bot.name,
      last_name: '',
      displayname: bot.name,
      is_activated: 1,
      is_bot: 1,
      date_joined: new Date().toISOString(),
    });
  }

  renameBot(botId: number, name: string): Promise<void> {
    return usersRepo.updateUser(this.db, botId, { first_name: name, displayname: name });
  }

  /** Written when a person's last socket closes. */
  async markSeen(userId: number): Promise<void> {
    await usersRepo.updateUser(this.db, userId, { last_seen: new Date().toISOString() });
  }

  /**
   * Online and last seen as others see them, given whether the person is online now; null for someone who no
   * longer exists, or who hides their online status (nothing about them changes for others) unless `hiddenToo`
   * (they just turned it off: others see them offline, never seen).
   */
  async presenceForOthers(userId: number, online: boolean, hiddenToo = false) {
    const user = await usersRepo.findUserById(this.db, userId);
    return user && (user.online_status || hiddenToo) ? visiblePresence(user, online) : null;
  }

  /** The username, or '' for someone deleted since. */
  async usernameOf(userId: number): Promise<string> {
    return (await usersRepo.findUserById(this.db, userId))?.username ?? '';
  }

  /** Of these people, those with Email Notifications on. */
  withEmailNotifications(userIds: number[]): Promise<number[]> {
    return usersRepo.emailRecipients(this.db, userIds);
  }

  /** Where a person's mail goes, in which language, and whether the missed-message mail still should. */
  mailRecipient(userId: number) {
    return usersRepo.mailRecipient(this.db, userId);
  }

  // --- For the admin module: site admins, deactivation, the badge, the people table ---

  isSiteAdmin(userId: number): Promise<boolean> {
    return usersRepo.isSiteAdmin(this.db, userId);
  }

  adminPage(options: Parameters<typeof usersRepo.adminPage>[1]) {
    return usersRepo.adminPage(this.db, options);
  }

  adminRow(userId: number, db: Db = this.db) {
    return usersRepo.adminRow(db, userId);
  }

  adminCounts() {
    return usersRepo.adminCounts(this.db);
  }

  activeIds(): Promise<number[]> {
    return usersRepo.activeIds(this.db);
  }

  findByUsername(username: string) {
    return usersRepo.findUserByUsername(this.db, username);
  }

  /** Sets the site-admin flag, the deactivation time or the verified badge; `db` may be the caller's transaction. */
  setFlags(
    userId: number,
    changes: { is_site_admin?: 0 | 1; deactivated_at?: string | null; is_blue_verified?: 0 | 1 },
    db: Db = this.db,
  ): Promise<void> {
    return usersRepo.updateUser(db, userId, changes);
  }
}

/**
 * Whether a target may name anyone: no stored username holds a NUL character, and PostgreSQL refuses one in a
 * text parameter outright (an error, not an empty answer).
 */
const canName = (target: string | number): boolean =>
  typeof target === 'number' || !target.includes('\u0000');
