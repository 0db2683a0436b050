import {
  displayNameOf,
  MESSAGE_TEXT,
  type Report,
  type ReportAction,
  type ReportCreated,
  type ReportList,
  type ReportReason,
  SAFETY_TEXT,
} from '@parley/protocol';
import type { Db } from '../../db/database';
import { BadRequestError, ConflictError, NotFoundError, TooManyRequestsError } from '../../platform/errors';
import type { RateLimiter } from '../../platform/rate-limit';
import type { UsersService } from '../accounts/users.service';
import type { AuditService } from '../audit/audit.service';
import type { MessagesService } from '../messages/messages.service';
import * as repo from './reports.repo';

/**
 * Reports of messages and people; this module owns the `reports` table. `ctx.reports`:
 *
 * For people (POST /api/reports/, reports.routes.ts):
 * - `create(reporterId, {message_id | username, reason, note})` → `{id, detail}`. A message must be one the
 *   reporter can see (a member of its chat; else 404) and not their own; a person must exist and not be the
 *   reporter. One open report per reporter and message (or person): 409. At most REPORTS_PER_HOUR per person: 429.
 *   The text of a reported message is kept on the report as it read then. Recorded as `report.created` in the
 *   audit log (no message text there).
 *
 * For the operator console (the admin API builds on these; it checks the caller is a site admin):
 * - `list({status?: 'open' | 'resolved', page?: 1…})` → `{results, count}`: newest first, PAGE_SIZE a page,
 *   each with reporter, target, message_id, message_body, chat_id and resolution (no `context`).
 * - `get(id)` → the report with `context`: the reported message and up to CONTEXT_AROUND messages either side,
 *   as they read now (empty once the message is gone). 404 for no such report.
 * - `resolve(id, actorId, {action, note}, trx?)` → the report as it now stands. It records the outcome only:
 *   the caller performs the action itself first (`delete_message`: ctx.messages.changes; `deactivate_user`: the
 *   admin's own service), so a failed action leaves the report open. 404 for no such report, 409 when it is
 *   already resolved. Pass `trx` to record it inside the caller's transaction.
 */
export const REPORTS_PER_HOUR = 10;
export const PAGE_SIZE = 50;
export const CONTEXT_AROUND = 3;
const HOUR_MS = 60 * 60 * 1000;

interface Deps {
  db: Db;
  limiter: RateLimiter;
  users: Pick<UsersService, 'activatedIdOf'>;
  messages: Pick<MessagesService, 'visibleTo' | 'contextOf'>;
  audit?: Pick<AuditService, 'record'>;
}

/** A person named in a report; its query reads no display name, so the full name, else the username. */
const person = (id: number | null, username: string | null, first: string | null, last: string | null) =>
  id !== null && username !== null
    ? { id, username, name: displayNameOf({ first_name: first, last_name: last, username }) }
    : null;

function toReport(r: repo.ReportRow): Report {
  return {
    id: r.id,
    reason: r.reason as ReportReason,
    note: r.note,
    status: r.status,
    created_at: r.created_at,
    reporter: person(r.reporter_id, r.reporter_username, r.reporter_first_name, r.reporter_last_name),
    target: person(r.target_user_id, r.target_username, r.target_first_name, r.target_last_name),
    message_id: r.message_id,
    message_body: r.message_body,
    chat_id: r.chat_id,
    resolution:
      r.status === 'resolved' && r.resolved_at
        ? {
            action: r.resolution_action as ReportAction,
            note: r.resolution_note ?? '',
            resolved_at: r.resolved_at,
            resolved_by: person(
              r.resolved_by,
              r.resolver_username,
              r.resolver_first_name,
              r.resolver_last_name,
            ),
          }
        : null,
  };
}

export class ReportsService {
  constructor(private readonly deps: Deps) {}

  async create(
    reporterId: number,
    input: { message_id?: number; username?: string; reason: ReportReason; note: string },
  ): Promise<ReportCreated> {
    const limit = await this.deps.limiter.hit(`report:${reporterId}`, REPORTS_PER_HOUR, HOUR_MS);
    if (!limit.allowed) throw new TooManyRequestsError(limit.retryAfterSeconds, SAFETY_TEXT.tooManyReports);
    const about = await this.subjectOf(reporterId, input);
    const duplicate = await repo.openReportBy(
      this.deps.db,
      reporterId,
      about.message_id !== null
        ? { messageId: about.message_id }
        : { targetUserId: about.target_user_id ?? 0 },
    );
    if (duplicate) throw new ConflictError(SAFETY_TEXT.alreadyReported);
    const id = await this.deps.db.transaction().execute(async (trx) => {
      const id = await repo.insertReport(trx, {
        reporter_id: reporterId,
        ...about,
        reason: input.reason,
        note: input.note,
        created_at: new Date().toISOString(),
      });
      await this.deps.audit?.record(
        {
          type: 'report.created',
          actor_id: reporterId,
          target_id: about.target_user_id,
          detail: { report_id: id, reason: input.reason, message_id: about.message_id },
        },
        trx,
      );
      return id;
    });
    return { id, detail: SAFETY_TEXT.reported };
  }

  async list(filter: { status?: 'open' | 'resolved'; page?: number } = {}): Promise<ReportList> {
    const page = Math.max(1, Math.floor(filter.page ?? 1));
    const [rows, count] = await Promise.all([
      repo.listReports(this.deps.db, {
        status: filter.status,
        limit: PAGE_SIZE,
        offset: (page - 1) * PAGE_SIZE,
      }),
      repo.countReports(this.deps.db, filter.status),
    ]);
    return { results: rows.map(toReport), count };
  }

  async get(id: number): Promise<Report> {
    const row = await repo.reportById(this.deps.db, id);
    if (!row) throw new NotFoundError(SAFETY_TEXT.reportNotFound);
    const context = row.message_id ? await this.deps.messages.contextOf(row.message_id, CONTEXT_AROUND) : [];
    return { ...toReport(row), context };
  }

  async resolve(
    id: number,
    actorId: number,
    input: { action: ReportAction; note: string },
    trx: Db = this.deps.db,
  ): Promise<Report> {
    const done = await repo.resolveReport(trx, id, {
      resolved_by: actorId,
      resolution_action: input.action,
      resolution_note: input.note,
      resolved_at: new Date().toISOString(),
    });
    if (!done) {
      if (!(await repo.reportById(trx, id))) throw new NotFoundError(SAFETY_TEXT.reportNotFound);
      throw new ConflictError(SAFETY_TEXT.alreadyResolved);
    }
    const row = await repo.reportById(trx, id);
    if (!row) throw new NotFoundError(SAFETY_TEXT.reportNotFound);
    return toReport(row);
  }

  /** What the report is about: a message the reporter can see (and its author), or a person. */
  private async subjectOf(
    reporterId: number,
    input: { message_id?: number; username?: string },
  ): Promise<Pick<repo.NewReport, 'target_user_id' | 'message_id' | 'chat_id' | 'message_body'>> {
    if (input.message_id !== undefined) {
      const { message, chat } = await this.deps.messages.visibleTo(reporterId, input.message_id);
      if (message.kind !== 'user' || message.sender === null)
        throw new BadRequestError('This message cannot be reported.');
      if (message.is_deleted) throw new BadRequestError(MESSAGE_TEXT.deleted);
      if (message.sender === reporterId) throw new BadRequestError(SAFETY_TEXT.cannotReportSelf);
      return {
        target_user_id: message.sender,
        message_id: message.id,
        chat_id: chat.chat_id,
        message_body: message.body,
      };
    }
    const targetId = await this.deps.users.activatedIdOf(input.username ?? '');
    if (!targetId) throw new NotFoundError('User not found.');
    if (targetId === reporterId) throw new BadRequestError(SAFETY_TEXT.cannotReportSelf);
    return { target_user_id: targetId, message_id: null, chat_id: null, message_body: null };
  }
}
