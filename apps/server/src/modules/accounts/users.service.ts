import { MAX_DB_ID } from '@parley/protocol';
import type { Db } from '../../db/database';
import * as usersRepo from './users.repo';

export type { UserCard } from './users.repo';

/**
 * The users table for every other module: accounts owns it, so chats, groups, profiles and notifications ask
 * here instead of querying it themselves.
 */
export class UsersService {
  constructor(private readonly db: Db) {}

  /** What messages and member lists show of these people, in one query; [] for []. */
  cards(userIds: number[]): Promise<usersRepo.UserCard[]> {
    return usersRepo.cards(this.db, userIds);
  }

  /** Activated users by username (case-insensitive) or numeric id; unknown or unactivated ones are left out. */
  findActivated(targets: (string | number)[]) {
    return usersRepo.findActivated(this.db, targets);
  }

  /** An activated user named by username first (usernames may be all digits), then by numeric id. */
  async activatedIdOf(target: string): Promise<number | undefined> {
    return (
      (await usersRepo.activatedByUsername(this.db, target)) ??
      (/^\d{1,10}$/.test(target) && Number(target) <= MAX_DB_ID
        ? await usersRepo.activatedById(this.db, Number(target))
        : undefined)
    );
  }
}
