import { randomBytes } from 'node:crypto';
import {
  API_TOKEN_PREFIX,
  type ApiToken,
  type ApiTokenCreate,
  type ApiTokenCreated,
  INTEGRATION_AUDIT,
  type TokenScope,
} from '@parley/protocol';
import type { Db } from '../../db/database';
import type { Session } from '../../platform/auth';
import { NotFoundError } from '../../platform/errors';
import type { DomainEvents } from '../../platform/events';
import type { AuditService } from '../audit/audit.service';
import * as repo from './api-tokens.repo';
import { hashToken } from './session-hash';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** 32 random bytes written in base62 (43 characters): letters and digits only, so a double-click selects it. */
export function base62Secret(bytes = 32): string {
  let n = BigInt(`0x${randomBytes(bytes).toString('hex')}`);
  let out = '';
  for (let i = 0; i < Math.ceil((bytes * 8) / Math.log2(62)); i++) {
    out += BASE62[Number(n % 62n)];
    n /= 62n;
  }
  return out;
}

/**
 * A token acts as a session whose id is the token's id negated: the socket sweep, revocation and the Hub key
 * sockets by session id, and a negative one can never be a sessions row.
 */
export const sessionIdOfToken = (tokenId: number): number => -tokenId;

const scopesOf = (stored: string): TokenScope[] => stored.split(',') as TokenScope[];

const toApiToken = (row: repo.ApiTokenRow): ApiToken => ({
  id: row.id,
  name: row.name,
  scopes: scopesOf(row.scopes),
  created_at: row.created_at,
  expires_at: row.expires_at,
  last_used_at: row.last_used_at,
});

interface Verified {
  session: Session;
  until: number;
  usedAt: number;
}

interface Deps {
  db: Db;
  events: DomainEvents;
  audit: Pick<AuditService, 'record'>;
}

const VERIFIED_TTL_MS = 5_000;
const MAX_VERIFIED = 10_000;
const USE_INTERVAL_MS = 60_000;

/**
 * Personal access tokens: `prl_` and 256 random bits, shown once, only their SHA-256 stored. A token verifies
 * to a Session carrying its scopes; requireAuth keeps it from the account's own routes and, without 'write',
 * from changing anything.
 */
export class ApiTokensService {
  /** Tokens verified in the last few seconds, by hash: a script's every request does not read the table. */
  private readonly verified = new Map<string, Verified>();
  private revocations = 0;

  constructor(private readonly deps: Deps) {
    deps.events.on('sessions.revoked', ({ userId, sessionIds }) => this.forget(userId, sessionIds));
  }

  async create(userId: number, input: ApiTokenCreate & { scopes: TokenScope[] }): Promise<ApiTokenCreated> {
    const created = await this.mint(userId, input.name, input.scopes, input.expires_in_days ?? null);
    await this.deps.audit.record({
      type: INTEGRATION_AUDIT.tokenCreated,
      actor_id: userId,
      target_id: userId,
      detail: { token_id: created.id, scopes: created.scopes },
    });
    return created;
  }

  /** A new token of a user (a person's, or a bot's by its owner), without auditing: the caller does. */
  async mint(
    userId: number,
    name: string,
    scopes: TokenScope[],
    expiresInDays: number | null,
    db: Db = this.deps.db,
  ): Promise<ApiTokenCreated> {
    const token = `${API_TOKEN_PREFIX}${base62Secret()}`;
    const now = Date.now();
    const row = await repo.insertToken(db, {
      user_id: userId,
      name,
      token_hash: hashToken(token),
      scopes: scopes.join(','),
      created_at: new Date(now).toISOString(),
      expires_at: expiresInDays === null ? null : new Date(now + expiresInDays * 86_400_000).toISOString(),
    });
    return { ...toApiToken(row), token };
  }

  async list(userId: number): Promise<ApiToken[]> {
    return (await repo.liveTokensOf(this.deps.db, userId, new Date().toISOString())).map(toApiToken);
  }

  /** Revokes one of the person's tokens (another's is a 404): refused at once here, its sockets closed everywhere. */
  async revoke(userId: number, tokenId: number): Promise<void> {
    if (!(await repo.deleteTokenOf(this.deps.db, userId, tokenId))) throw new NotFoundError();
    this.revoked(userId, [tokenId]);
    await this.deps.audit.record({
      type: INTEGRATION_AUDIT.tokenRevoked,
      actor_id: userId,
      target_id: userId,
      detail: { token_id: tokenId },
    });
  }

  /** Revokes every token of a user (a bot's credentials rotated or the bot deleted). */
  async revokeAllOf(userId: number, db: Db = this.deps.db): Promise<void> {
    const ids = await repo.deleteTokensOf(db, userId);
    if (ids.length > 0) this.revoked(userId, ids);
  }

  private revoked(userId: number, tokenIds: number[]): void {
    const sessionIds = tokenIds.map(sessionIdOfToken);
    this.forget(userId, sessionIds);
    this.deps.events.emit('sessions.revoked', { userId, sessionIds });
  }

  private forget(userId: number, sessionIds: number[] | 'all'): void {
    this.revocations++;
    for (const [hash, v] of this.verified) {
      if (v.session.userId !== userId) continue;
      if (sessionIds === 'all' || sessionIds.includes(v.session.sessionId)) this.verified.delete(hash);
    }
  }

  /** The session a token stands for, or null for an unknown, revoked or expired one. */
  async verify(token: string): Promise<Session | null> {
    const hash = hashToken(token);
    const now = Date.now();
    const hit = this.verified.get(hash);
    if (hit && now < hit.until) {
      hit.usedAt = this.noteUse(-hit.session.sessionId, hit.usedAt, now);
      return hit.session;
    }
    this.verified.delete(hash);
    const revocations = this.revocations;
    const row = await repo.tokenByHash(this.deps.db, hash);
    if (!row) return null;
    const expiresAt = row.expires_at ? Date.parse(row.expires_at) : Number.POSITIVE_INFINITY;
    if (expiresAt <= now) return null;
    const session: Session = {
      sessionId: sessionIdOfToken(row.id),
      userId: row.user_id,
      scopes: scopesOf(row.scopes),
    };
    const usedAt = this.noteUse(row.id, row.last_used_at ? Date.parse(row.last_used_at) : 0, now);
    if (revocations === this.revocations) {
      if (this.verified.size >= MAX_VERIFIED) {
        const oldest = this.verified.keys().next();
        if (!oldest.done) this.verified.delete(oldest.value);
      }
      this.verified.set(hash, { session, until: Math.min(now + VERIFIED_TTL_MS, expiresAt), usedAt });
    }
    return session;
  }

  /** Writes last_used_at at most once a minute per token, beside the request. */
  private noteUse(tokenId: number, usedAt: number, now: number): number {
    if (now - usedAt < USE_INTERVAL_MS) return usedAt;
    void repo.touchToken(this.deps.db, tokenId, new Date(now).toISOString()).catch(() => undefined);
    return now;
  }

  /** Which of these tokens (by id) are still usable. */
  async liveAmong(tokenIds: number[]): Promise<Set<number>> {
    if (tokenIds.length === 0) return new Set();
    return new Set(await repo.liveTokenIds(this.deps.db, tokenIds, new Date().toISOString()));
  }

  sweepExpired(): Promise<void> {
    return repo.deleteExpiredTokens(this.deps.db, new Date().toISOString());
  }
}
