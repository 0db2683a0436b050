import type { AuditEvent, AuditPage } from '@parley/protocol';
import type { Db } from '../../db/database';
import * as repo from './audit.repo';

/** What is recorded: `type` dotted (`admin.user.deactivated`, `auth.login_failed`), people by id. */
export interface AuditRecord {
  type: string;
  actor_id?: number | null;
  target_id?: number | null;
  /** Plain facts (a note, an IP, a username at the time). Never passwords, codes, tokens or message bodies. */
  detail?: Record<string, unknown>;
}

const PAGE_SIZE = 50;

const parseDetail = (text: string): Record<string, unknown> => {
  try {
    const v = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
};

/**
 * The audit log of admin actions and security events, kept in the database (`ctx.audit`). Any module records
 * through `record`, inside its own transaction when the event belongs to a change (so a rolled-back change leaves
 * no record), or alone after the fact.
 */
export class AuditService {
  constructor(private readonly db: Db) {}

  async record(event: AuditRecord, trx: Db = this.db): Promise<void> {
    await repo.insertEvent(trx, {
      type: event.type,
      actor_id: event.actor_id ?? null,
      target_id: event.target_id ?? null,
      detail: JSON.stringify(event.detail ?? {}),
      created_at: new Date().toISOString(),
    });
  }

  /** Newest first, PAGE_SIZE at a time; `next` is the `before` of the following page. */
  async list(filter: { type?: string; userId?: number; before?: number }): Promise<AuditPage> {
    const rows = await repo.listEvents(this.db, { ...filter, limit: PAGE_SIZE + 1 });
    const page = rows.slice(0, PAGE_SIZE);
    const results: AuditEvent[] = page.map((r) => ({
      id: r.id,
      type: r.type,
      actor: r.actor_id === null ? null : { id: r.actor_id, username: r.actor_username ?? null },
      target: r.target_id === null ? null : { id: r.target_id, username: r.target_username ?? null },
      at: r.created_at,
      detail: parseDetail(r.detail),
    }));
    return { results, next: rows.length > PAGE_SIZE ? (page[page.length - 1]?.id ?? null) : null };
  }

  /** Every type recorded so far, for the log's filter. */
  types(): Promise<string[]> {
    return repo.distinctTypes(this.db);
  }
}
