import {
  ADMIN_USERS_PAGE_SIZE,
  type AdminStats,
  type AdminUser,
  type AdminUsersFilter,
  type AdminUsersPage,
  AUDIT,
  type Report,
  type ReportAction,
  SAFETY_TEXT,
} from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/errors';
import type { Presence } from '../../platform/presence';
import type { FileStorage } from '../../platform/storage';
import type { SessionService } from '../accounts/session.service';
import { avatarUrl } from '../accounts/user-view';
import type { AdminUserRow } from '../accounts/users.repo';
import type { UsersService } from '../accounts/users.service';
import type { AuditService } from '../audit/audit.service';
import type { MessageStats } from '../messages/message-stats';
import type { ReportsService } from '../reports/reports.service';
import type { AccountAction, AccountActionsService } from './account-actions.service';

interface Deps {
  log: FastifyBaseLogger;
  users: UsersService;
  sessions: SessionService;
  /** Accounts' own deletion (DESIGN §1). */
  deleteAccount: (userId: number) => Promise<void>;
  /** The changes to an account the operator's commands make too, audited the same way. */
  actions: AccountActionsService;
  presence: Presence;
  /** Where uploads and pictures are kept: every stored file with its size. */
  storage: Pick<FileStorage, 'list'>;
  /** The reports module's queue (built beside this service, so reached late). */
  reports: () => ReportsService;
  /** The messages module's deletion for everyone, on an operator's word: the room hears it. */
  deleteMessage: (chatId: string, messageId: number) => Promise<void>;
  stats: MessageStats;
  audit: AuditService;
}

const DAY = 24 * 3600_000;
const CHART_DAYS = 30;
/** Walking every stored file is slow on a big server: the total is kept this long. */
const STORAGE_TTL_MS = 60_000;

/** An action taken in the console: always by a signed-in site admin. */
type Action = AccountAction & { actorId: number };

/**
 * What a site admin may do to people, each recorded in the audit log with its note: deactivate and reactivate
 * (a deactivated person cannot sign in; their sessions and sockets end at once), the verified badge, deleting an
 * account (as the person's own deletion does), signing them out everywhere; and the console's totals.
 */
export class AdminService {
  private storageCache: { bytes: number; at: number } | null = null;

  constructor(private readonly deps: Deps) {}

  /** Says at start whether the server has a site admin, so an operator knows how to get one. */
  async announce(): Promise<void> {
    const { admins, activated } = await this.deps.users.adminCounts();
    if (admins > 0) return;
    this.deps.log.info(
      activated === 0
        ? 'No site admin yet: the first account whose email is verified becomes its site admin.'
        : 'No site admin: grant one with `npm run admin -- grant-admin <username>`.',
    );
  }

  async listUsers(query: AdminUsersFilter): Promise<AdminUsersPage> {
    const { rows, count } = await this.deps.users.adminPage({
      q: query.q,
      sort: query.sort,
      order: query.order,
      limit: ADMIN_USERS_PAGE_SIZE,
      offset: (query.page - 1) * ADMIN_USERS_PAGE_SIZE,
    });
    const online = await this.deps.presence.onlineAmong(rows.map((r) => r.id));
    return {
      results: rows.map((r) => this.view(r, online.has(r.id))),
      count,
      page: query.page,
      page_size: ADMIN_USERS_PAGE_SIZE,
    };
  }

  private view(r: AdminUserRow, online: boolean): AdminUser {
    return {
      id: r.id,
      username: r.username,
      email: r.email,
      displayname: r.displayname,
      avatar: avatarUrl(r.avatar),
      date_joined: r.date_joined,
      last_seen: r.last_seen,
      is_activated: !!r.is_activated,
      is_active: r.deactivated_at === null,
      deactivated_at: r.deactivated_at,
      is_blue_verified: !!r.is_blue_verified,
      is_site_admin: !!r.is_site_admin,
      is_online: online,
    };
  }

  async user(userId: number): Promise<AdminUser> {
    const row = await this.requireUser(userId);
    return this.view(row, await this.deps.presence.isOnline(userId));
  }

  private async requireUser(userId: number) {
    const row = await this.deps.users.adminRow(userId);
    if (!row) throw new NotFoundError('No such person.');
    return row;
  }

  async deactivate(a: Action): Promise<AdminUser> {
    await this.deps.actions.deactivate(a);
    // After the commit: every session goes and every socket closes with 4001, on every process.
    await this.deps.sessions.revokeAll(a.userId);
    return this.user(a.userId);
  }

  async reactivate(a: Action): Promise<AdminUser> {
    await this.deps.actions.reactivate(a);
    return this.user(a.userId);
  }

  async setVerified(a: Action, verified: boolean): Promise<AdminUser> {
    await this.deps.actions.setVerified(a, verified);
    return this.user(a.userId);
  }

  async signOutEverywhere(a: Action): Promise<void> {
    await this.deps.actions.apply(a, AUDIT.userSignedOut, async () => {});
    await this.deps.sessions.revokeAll(a.userId);
  }

  /** As the person's own deletion (DESIGN §1): credentials, sessions, profile, avatar and messages go. */
  async deleteAccount(a: Action): Promise<void> {
    this.deps.actions.notSelf(a, 'delete');
    const row = await this.requireUser(a.userId);
    await this.deps.deleteAccount(a.userId);
    await this.deps.actions.record(a, AUDIT.userDeleted, row.username);
  }

  /**
   * Resolves a report: the action first (deleting the message for everyone, or deactivating its author), then
   * the outcome on the report and in the audit log. A failed action leaves the report open.
   */
  async resolveReport(
    actorId: number,
    reportId: number,
    input: { action: ReportAction; note: string },
  ): Promise<Report> {
    const reports = this.deps.reports();
    const report = await reports.get(reportId);
    if (report.status === 'resolved') throw new ConflictError(SAFETY_TEXT.alreadyResolved);
    if (input.action === 'delete_message') {
      if (report.message_id === null || report.chat_id === null)
        throw new BadRequestError('This report is not about a message.');
      await this.deps.deleteMessage(report.chat_id, report.message_id);
    } else if (input.action === 'deactivate_user') {
      const target = report.target;
      if (!target) throw new BadRequestError('The reported account no longer exists.');
      const row = await this.deps.users.adminRow(target.id);
      if (row && !row.deactivated_at) await this.deactivate({ actorId, userId: target.id, note: input.note });
    }
    const resolved = await reports.resolve(reportId, actorId, input);
    await this.deps.audit.record({
      type: AUDIT.reportResolved,
      actor_id: actorId,
      target_id: report.target?.id ?? null,
      detail: {
        report_id: reportId,
        action: input.action,
        ...(report.message_id !== null ? { message_id: report.message_id } : {}),
        ...(input.note ? { note: input.note } : {}),
      },
    });
    return resolved;
  }

  async stats(): Promise<AdminStats> {
    const today = new Date(new Date().toISOString().slice(0, 10));
    const since = new Date(today.getTime() - (CHART_DAYS - 1) * DAY);
    const [people, perDay, ids, storageBytes] = await Promise.all([
      this.deps.users.adminCounts(),
      this.deps.stats.perDay(since.toISOString()),
      this.deps.users.activeIds(),
      this.storageBytes(),
    ]);
    const counts = new Map(perDay.map((d) => [d.day, d.n]));
    const messagesPerDay = Array.from({ length: CHART_DAYS }, (_, i) => {
      const day = new Date(since.getTime() + i * DAY).toISOString().slice(0, 10);
      return { day, count: counts.get(day) ?? 0 };
    });
    const online = ids.length ? (await this.deps.presence.onlineAmong(ids)).size : 0;
    return { people, messages_per_day: messagesPerDay, online_now: online, storage_bytes: storageBytes };
  }

  private async storageBytes(): Promise<number> {
    const now = Date.now();
    if (this.storageCache && now - this.storageCache.at < STORAGE_TTL_MS) return this.storageCache.bytes;
    let bytes = 0;
    for await (const entry of this.deps.storage.list()) bytes += entry.size;
    this.storageCache = { bytes, at: now };
    return bytes;
  }
}
