import { type BlockedPerson, type BlockState, displayNameOf, SAFETY_TEXT } from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database';
import type { Bus } from '../../platform/bus';
import { BadRequestError, NotFoundError } from '../../platform/errors';
import type { DomainEvents } from '../../platform/events';
import { avatarUrl } from '../accounts/user-view';
import type { UsersService } from '../accounts/users.service';
import * as repo from './blocks.repo';

// Blocking. A block is one-way in the table and two-way in effect: neither person sees the other
// online, typing or reading, and the blocked person cannot message the blocker (nor the blocker them until they
// unblock). Checks that must be exact (starting a chat, the writer) read the table; the per-frame filters of the
// realtime side (typing, receipts, room occupancy) read a per-process cache that every process drops for both
// people as soon as a block changes anywhere (the bus topic below), with a short lifetime as a backstop.

interface Deps {
  db: Db;
  bus: Bus;
  users: Pick<UsersService, 'activatedIdOf'>;
  events: DomainEvents;
  log: FastifyBaseLogger;
}

/** A block between two people, as the writer and the start of a chat read it. */
export interface BlockPair {
  blocker_id: number;
  blocked_id: number;
}

const CHANGES_TOPIC = 'safety:blocks';
const CACHE_TTL_MS = 60_000;
const CACHE_SIZE = 10_000;

/**
 * Why `senderId` may not message `recipientId` given the blocks between them, or null when nothing stands in
 * the way. The blocked person's refusal says nothing about a block; the blocker is told to unblock.
 */
export function messageRefusal(pairs: BlockPair[], senderId: number, recipientId: number): string | null {
  if (pairs.some((b) => b.blocker_id === recipientId && b.blocked_id === senderId))
    return SAFETY_TEXT.cannotMessage;
  if (pairs.some((b) => b.blocker_id === senderId && b.blocked_id === recipientId))
    return SAFETY_TEXT.unblockToMessage;
  return null;
}

export class BlocksService {
  private readonly cache = new Map<number, { related: Set<number>; at: number }>();
  private readonly unsubscribe: Promise<() => Promise<void>>;

  constructor(private readonly deps: Deps) {
    this.unsubscribe = deps.bus.subscribe(CHANGES_TOPIC, (m) => {
      try {
        for (const id of JSON.parse(m.data) as number[]) this.cache.delete(id);
      } catch {
        this.cache.clear();
      }
    });
    this.unsubscribe.catch((err) => deps.log.error({ err }, 'block changes subscription failed'));
  }

  /** Blocks the person named by username (or id); blocking again changes nothing. */
  async block(blockerId: number, target: string): Promise<BlockState> {
    const blockedId = await this.targetOf(blockerId, target);
    await repo.insertBlock(this.deps.db, blockerId, blockedId, new Date().toISOString());
    await this.changed(blockerId, blockedId);
    return { blocked: true, detail: SAFETY_TEXT.blocked };
  }

  /** Lifts the caller's block of that person; one that was never there is not an error. */
  async unblock(blockerId: number, target: string): Promise<BlockState> {
    const blockedId = await this.targetOf(blockerId, target);
    await repo.deleteBlock(this.deps.db, blockerId, blockedId);
    await this.changed(blockerId, blockedId);
    return { blocked: false, detail: SAFETY_TEXT.unblocked };
  }

  /** The people the caller blocked, newest first. */
  async list(blockerId: number): Promise<BlockedPerson[]> {
    const rows = await repo.blockedBy(this.deps.db, blockerId);
    return rows.map((r) => ({
      id: r.id,
      username: r.username,
      name: displayNameOf(r),
      avatar: avatarUrl(r.avatar),
      blocked_at: r.blocked_at,
    }));
  }

  /** The ids of the people this person blocked (read from the table): whose messages never preview for them. */
  async blockedIdsBy(blockerId: number): Promise<number[]> {
    return (await repo.blockedIdsBy(this.deps.db, blockerId)).map((r) => r.blocked_id);
  }

  /** Everyone this person blocked or was blocked by: the people who must not see each other's presence. */
  async relatedTo(userId: number): Promise<Set<number>> {
    const now = Date.now();
    const known = this.cache.get(userId);
    if (known && now - known.at < CACHE_TTL_MS) return known.related;
    const rows = await repo.blocksOf(this.deps.db, userId);
    const related = new Set(rows.map((r) => (r.blocker_id === userId ? r.blocked_id : r.blocker_id)));
    if (this.cache.size >= CACHE_SIZE) this.cache.clear();
    this.cache.set(userId, { related, at: now });
    return related;
  }

  /** For each of these people, the others among them they blocked or were blocked by (only those with any). */
  async relationsAmong(userIds: number[]): Promise<Map<number, Set<number>>> {
    const out = new Map<number, Set<number>>();
    const among = new Set(userIds);
    const all = await Promise.all(userIds.map(async (id) => [id, await this.relatedTo(id)] as const));
    for (const [id, related] of all) {
      const here = [...related].filter((r) => among.has(r));
      if (here.length > 0) out.set(id, new Set(here));
    }
    return out;
  }

  /** The blocks any of these people are part of, read from the table (the writer's exact check). */
  blocksInvolving(userIds: number[]): Promise<BlockPair[]> {
    return repo.blocksInvolving(this.deps.db, userIds);
  }

  /** Why `senderId` may not start a private chat with or message `recipientId`, or null (see messageRefusal). */
  async refusal(senderId: number, recipientId: number): Promise<string | null> {
    return messageRefusal(
      await repo.blocksAmong(this.deps.db, [senderId, recipientId]),
      senderId,
      recipientId,
    );
  }

  async close(): Promise<void> {
    await (await this.unsubscribe.catch(() => async () => {}))();
    this.cache.clear();
  }

  private async targetOf(blockerId: number, target: string): Promise<number> {
    const id = await this.deps.users.activatedIdOf(target);
    if (!id) throw new NotFoundError('User not found.');
    if (id === blockerId) throw new BadRequestError(SAFETY_TEXT.cannotBlockSelf);
    return id;
  }

  /** Every process forgets what it knew of both people; the realtime side re-announces what they share. */
  private async changed(blockerId: number, blockedId: number): Promise<void> {
    this.cache.delete(blockerId);
    this.cache.delete(blockedId);
    await this.deps.bus.publish(CHANGES_TOPIC, { data: JSON.stringify([blockerId, blockedId]) });
    this.deps.events.emit('blocks.changed', { blockerId, blockedId });
  }
}
