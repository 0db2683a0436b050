import { AUDIT } from '@parley/protocol';
import type { Db } from '../../db/database';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/errors';
import type { AdminUserRow } from '../accounts/users.repo';
import type { UsersService } from '../accounts/users.service';
import type { AuditService } from '../audit/audit.service';

/**
 * One action on one account and who takes it: a site admin through the admin API (their id), or the operator
 * at the command line (`actorId` null: no account of this server acts, and the log says `by: 'command line'`).
 */
export interface AccountAction {
  actorId: number | null;
  userId: number;
  note: string;
}

interface Deps {
  db: Db;
  users: UsersService;
  audit: AuditService;
}

/**
 * What may be changed on someone's account by a site admin or the operator — the verified badge, the site-admin
 * role, deactivation — each recorded in the audit log in the change's transaction, the same whichever door it
 * came through (the admin API or `npm run admin`).
 */
export class AccountActionsService {
  constructor(private readonly deps: Deps) {}

  /** The audit record of an action: who, whom, the username at the time, the note, and the door. */
  async record(a: AccountAction, type: string, username: string, trx?: Db): Promise<void> {
    await this.deps.audit.record(
      {
        type,
        actor_id: a.actorId,
        target_id: a.userId,
        detail: {
          username,
          ...(a.note ? { note: a.note } : {}),
          ...(a.actorId === null ? { by: 'command line' } : {}),
        },
      },
      trx,
    );
  }

  /** Applies a change to one person and records it, in one transaction. */
  async apply(
    a: AccountAction,
    type: string,
    change: (trx: Db, row: AdminUserRow) => Promise<void>,
  ): Promise<AdminUserRow> {
    return this.deps.db.transaction().execute(async (trx) => {
      const row = await this.deps.users.adminRow(a.userId, trx);
      if (!row) throw new NotFoundError('No such person.');
      await change(trx, row);
      await this.record(a, type, row.username, trx);
      return row;
    });
  }

  /** Refuses what an admin may not do to their own account through the console. */
  notSelf({ actorId, userId }: AccountAction, what: string): void {
    if (actorId === userId) throw new BadRequestError(`You cannot ${what} your own account here.`);
  }

  setVerified(a: AccountAction, verified: boolean): Promise<AdminUserRow> {
    return this.apply(a, verified ? AUDIT.userVerified : AUDIT.userUnverified, (trx) =>
      this.deps.users.setFlags(a.userId, { is_blue_verified: verified ? 1 : 0 }, trx),
    );
  }

  setSiteAdmin(a: AccountAction, admin: boolean): Promise<AdminUserRow> {
    return this.apply(a, admin ? AUDIT.adminGranted : AUDIT.adminRevoked, (trx) =>
      this.deps.users.setFlags(a.userId, { is_site_admin: admin ? 1 : 0 }, trx),
    );
  }

  /** Marks the account deactivated; its sessions are the caller's to end once this has committed. */
  async deactivate(a: AccountAction): Promise<AdminUserRow> {
    this.notSelf(a, 'deactivate');
    return this.apply(a, AUDIT.userDeactivated, async (trx, row) => {
      if (row.deactivated_at) throw new ConflictError('This account is already deactivated.');
      await this.deps.users.setFlags(a.userId, { deactivated_at: new Date().toISOString() }, trx);
    });
  }

  reactivate(a: AccountAction): Promise<AdminUserRow> {
    return this.apply(a, AUDIT.userReactivated, async (trx, row) => {
      if (!row.deactivated_at) throw new ConflictError('This account is not deactivated.');
      await this.deps.users.setFlags(a.userId, { deactivated_at: null }, trx);
    });
  }
}
