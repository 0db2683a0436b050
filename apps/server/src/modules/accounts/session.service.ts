import { randomBytes } from 'node:crypto';
import {
  API_TOKEN_PREFIX,
  SECURITY_AUDIT,
  SESSION_ACTIVITY_INTERVAL_MS,
  SESSION_TTL_REMEMBER_MS,
  SESSION_TTL_SHORT_MS,
  type SessionInfo,
} from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database';
import type { Session } from '../../platform/auth';
import { NotFoundError } from '../../platform/errors';
import type { DomainEvents } from '../../platform/events';
import { PeriodicTask } from '../../platform/periodic';
import type { AuditService } from '../audit/audit.service';
import type { ApiTokensService } from './api-tokens.service';
import { hashToken } from './session-hash';
import { toSessionInfo } from './session-view';
import * as repo from './sessions.repo';

export type { Session };

export { hashToken };

const LIVE_AMONG_CHUNK = 500;

/**
 * Pads a list of ids (repeating the last) to the next power of two, or the chunk size, so `IN (…)` takes
 * only a dozen SQL shapes and the prepared-statement cache is not flooded with one statement per count.
 */
const padToBucket = (ids: number[]): number[] => {
  let size = 1;
  while (size < ids.length) size *= 2;
  size = Math.min(size, LIVE_AMONG_CHUNK);
  const last = ids[ids.length - 1] as number;
  return ids.length === size ? ids : [...ids, ...new Array<number>(size - ids.length).fill(last)];
};

/** The session store's timings and cache size. */
export interface SessionTimings {
  /** How long a verified session is taken on trust (see SessionService.verify). */
  verifiedTtlMs: number;
  /** How many verified sessions are kept. */
  maxVerified: number;
  /** How often rows of expired sessions are deleted (a verify deletes the one it meets at once). */
  sweepIntervalMs: number;
  /** How often a session's last-active time is written at most. */
  activityIntervalMs: number;
}

export const SESSION_TIMINGS: SessionTimings = {
  verifiedTtlMs: 5_000,
  maxVerified: 10_000,
  sweepIntervalMs: 3600_000,
  activityIntervalMs: SESSION_ACTIVITY_INTERVAL_MS,
};

interface Verified {
  sessionId: number;
  userId: number;
  /** Date.now() past which the entry is not used: its time to live, or the session's own expiry if sooner. */
  until: number;
  /** When the session's last-active time was last written (or read), as Date.now(). */
  activeAt: number;
}

/** Where a session signs in from, kept for its owner's sessions list. */
export interface SessionClient {
  userAgent?: string | null;
  ip?: string | null;
}

const USER_AGENT_MAX = 512;

interface Deps {
  db: Db;
  events: DomainEvents;
  /** Where revocations by their owner are recorded. */
  audit: Pick<AuditService, 'record'>;
  timings: SessionTimings;
  /** A `prl_` bearer is an API token: verified there, as a session with scopes and a negative id. */
  tokens: Pick<ApiTokensService, 'verify' | 'liveAmong'>;
}

/** Session tokens: 256 random bits handed out once; only their SHA-256 hash is stored. */
export class SessionService {
  /**
   * Sessions verified in the last few seconds, by token hash, so a busy client's every request does not read
   * the sessions table. Revocation in this process drops entries at once (revoke, revokeAll, and any
   * 'sessions.revoked' emitted elsewhere, such as account deletion). Another process may still accept a revoked
   * token over HTTP for at most the time to live; its sockets are closed at once all the same, through the bus.
   */
  private readonly verified = new Map<string, Verified>();
  /** Counts revocations, so a verify that read a session before it was revoked does not cache it after. */
  private revocations = 0;
  private sweep: PeriodicTask | null = null;

  constructor(private readonly deps: Deps) {
    deps.events.on('sessions.revoked', ({ userId, sessionIds }) => this.forget(userId, sessionIds));
  }

  /**
   * Deletes expired sessions periodically: a session nobody presents again would otherwise stay forever, and
   * its push subscriptions with it. Every process may sweep; the delete is the same whoever runs it.
   */
  startSweeping(log: FastifyBaseLogger): this {
    this.sweep ??= new PeriodicTask(
      () => this.sweepExpired(),
      this.deps.timings.sweepIntervalMs,
      log,
      'expired session sweep',
    );
    this.sweep.start();
    return this;
  }

  /** Stops sweeping and waits for a sweep under way (call before the database closes). */
  async stop(): Promise<void> {
    await this.sweep?.stop();
  }

  /** Deletes the rows of every session expired by now; how many went. */
  sweepExpired(): Promise<number> {
    return repo.deleteExpiredSessions(this.deps.db, new Date().toISOString());
  }

  /** A new session and its token; `db` may be the caller's transaction. */
  async create(
    userId: number,
    remember: boolean,
    db: Db = this.deps.db,
    client: SessionClient = {},
  ): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = Date.now();
    await repo.insertSession(db, {
      user_id: userId,
      token_hash: hashToken(token),
      remember: remember ? 1 : 0,
      user_agent: client.userAgent ? client.userAgent.slice(0, USER_AGENT_MAX) : null,
      ip: client.ip ?? null,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + (remember ? SESSION_TTL_REMEMBER_MS : SESSION_TTL_SHORT_MS)).toISOString(),
    });
    return token;
  }

  /**
   * The live session a token belongs to, or null for an unknown, revoked or expired one. A session verified
   * in the last few seconds is answered from memory; an entry never outlives the session's expiry, so an
   * expired session still reaches the database here and its row is deleted as before.
   */
  async verify(token: string | undefined | null): Promise<Session | null> {
    if (!token || token.length > 200) return null;
    if (token.startsWith(API_TOKEN_PREFIX)) return this.deps.tokens.verify(token);
    const hash = hashToken(token);
    const now = Date.now();
    const hit = this.verified.get(hash);
    if (hit) {
      if (now < hit.until) {
        hit.activeAt = this.noteActivity(hit.sessionId, hit.activeAt, now);
        return { sessionId: hit.sessionId, userId: hit.userId };
      }
      this.verified.delete(hash);
    }
    const revocations = this.revocations;
    const row = await repo.findSessionByHash(this.deps.db, hash);
    if (!row) return null;
    const expiresAt = Date.parse(row.expires_at);
    if (row.expires_at <= new Date().toISOString()) {
      await repo.deleteSession(this.deps.db, row.id);
      return null;
    }
    const activeAt = this.noteActivity(row.id, Date.parse(row.last_active_at ?? row.created_at), now);
    if (revocations === this.revocations) {
      if (this.verified.size >= this.deps.timings.maxVerified) {
        const oldest = this.verified.keys().next();
        if (!oldest.done) this.verified.delete(oldest.value);
      }
      this.verified.set(hash, {
        sessionId: row.id,
        userId: row.user_id,
        until: Math.min(now + this.deps.timings.verifiedTtlMs, expiresAt),
        activeAt,
      });
    }
    return { sessionId: row.id, userId: row.user_id };
  }

  /**
   * Writes the session's last-active time when the last write is an interval old, never on every request; the
   * write runs beside the request (a lost one only makes "last active" a minute older). Returns when it was.
   */
  private noteActivity(sessionId: number, activeAt: number, now: number): number {
    if (now - activeAt < this.deps.timings.activityIntervalMs) return activeAt;
    const notBefore = new Date(now - this.deps.timings.activityIntervalMs).toISOString();
    void repo
      .touchSession(this.deps.db, sessionId, new Date(now).toISOString(), notBefore)
      .catch(() => undefined);
    return now;
  }

  /** The person's live sessions, newest first, the caller's marked current. */
  async list(session: Session): Promise<SessionInfo[]> {
    const rows = await repo.liveSessionsOf(this.deps.db, session.userId, new Date().toISOString());
    return rows.map((r) => toSessionInfo(r, session.sessionId));
  }

  /** Signs one of the person's own sessions out (their sockets close at once, everywhere); another's is a 404. */
  async revokeOwn(session: Session, sessionId: number): Promise<void> {
    if (!(await repo.deleteSessionOf(this.deps.db, session.userId, sessionId))) throw new NotFoundError();
    this.revoked(session.userId, [sessionId]);
    await this.deps.audit.record({
      type: SECURITY_AUDIT.sessionRevoked,
      actor_id: session.userId,
      target_id: session.userId,
      detail: { sessions: 1, current: sessionId === session.sessionId },
    });
  }

  /** 'Sign out all other sessions': every session of the person but this one; how many went. */
  async revokeOthers(session: Session): Promise<number> {
    const ids = await repo.deleteOtherSessions(this.deps.db, session.userId, session.sessionId);
    if (ids.length === 0) return 0;
    this.revoked(session.userId, ids);
    await this.deps.audit.record({
      type: SECURITY_AUDIT.sessionRevoked,
      actor_id: session.userId,
      target_id: session.userId,
      detail: { sessions: ids.length, others: true },
    });
    return ids.length;
  }

  /** Forgets these sessions here and announces them: 'sessions.revoked' closes their sockets on every process. */
  private revoked(userId: number, sessionIds: number[]): void {
    this.forget(userId, sessionIds);
    this.deps.events.emit('sessions.revoked', { userId, sessionIds });
  }

  /** Drops remembered verifications of revoked sessions ('all': every session of the user). */
  private forget(userId: number, sessionIds: number[] | 'all'): void {
    this.revocations++;
    for (const [hash, v] of this.verified) {
      if (v.userId === userId && (sessionIds === 'all' || sessionIds.includes(v.sessionId)))
        this.verified.delete(hash);
    }
  }

  async isLive(sessionId: number): Promise<boolean> {
    if (sessionId < 0) return (await this.deps.tokens.liveAmong([-sessionId])).size > 0;
    const expiresAt = await repo.expiryOf(this.deps.db, sessionId);
    return expiresAt !== undefined && expiresAt > new Date().toISOString();
  }

  /** Which of these sessions are still live (as isLive decides), in one query per 500 ids. */
  async liveAmong(sessionIds: number[]): Promise<Set<number>> {
    const live = new Set<number>();
    const all = [...new Set(sessionIds)];
    const ids = all.filter((id) => id > 0);
    // A token's sockets carry its id negated (api-tokens.service.ts).
    for (const tokenId of await this.deps.tokens.liveAmong(all.filter((id) => id < 0).map((id) => -id)))
      live.add(-tokenId);
    const now = new Date().toISOString();
    for (let i = 0; i < ids.length; i += LIVE_AMONG_CHUNK) {
      for (const id of await repo.liveIds(this.deps.db, padToBucket(ids.slice(i, i + LIVE_AMONG_CHUNK)), now))
        live.add(id);
    }
    return live;
  }

  async revoke(session: Session): Promise<void> {
    await repo.deleteSession(this.deps.db, session.sessionId);
    this.revoked(session.userId, [session.sessionId]);
  }

  async revokeAll(userId: number): Promise<void> {
    await repo.deleteSessionsOfUser(this.deps.db, userId);
    this.revokedAll(userId);
  }

  /**
   * Announces that every session of a user was deleted (by a caller's transaction, once it has committed):
   * forgotten here, and their sockets closed wherever they are.
   */
  revokedAll(userId: number): void {
    this.forget(userId, 'all');
    this.deps.events.emit('sessions.revoked', { userId, sessionIds: 'all' });
  }
}
