import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Presence } from '../presence';
import type { RoomPresence } from '../room-presence';
import {
  COMMAND_TIMEOUT_MS,
  type RedisOutage,
  reachable,
  redisClient,
  redisOutage,
  whenReachable,
} from './client';
import { fieldOf, instanceOf, PresenceMirror } from './presence-mirror';

const HEARTBEAT_MS = 20_000;
/** A process that stops sending heartbeats (crashed, cut off) is forgotten after this: its users go offline. */
const INSTANCE_TTL_S = 60;

/** Where every change to a presence hash is announced (`<process id> <key>`), for the mirrors. */
const CHANGES_CHANNEL = 'parley:presence:changed';

/**
 * This process's count under one field: set (HDEL at zero) and announced in one step, so no mirror can read the
 * hash after the change and miss the news. The count is this process's own, so it is written as it stands, not
 * added to: a write repeated or replayed after a reconnection cannot count anyone twice.
 */
const SET_SCRIPT = `if tonumber(ARGV[2]) > 0 then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
else redis.call('HDEL', KEYS[1], ARGV[1]) end
redis.call('PUBLISH', '${CHANGES_CHANNEL}', ARGV[3] .. ' ' .. KEYS[1])
return 1`;

/**
 * Every field of this process (`ARGV[1]` is its prefix) in one hash replaced by its counts as they stand
 * (`ARGV[3..]`: field, count, …), and announced: what it changed while Redis was away, written when it is back.
 */
const REPLACE_SCRIPT = `for _, f in ipairs(redis.call('HKEYS', KEYS[1])) do
  if string.sub(f, 1, #ARGV[1]) == ARGV[1] then redis.call('HDEL', KEYS[1], f) end
end
for i = 3, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('PUBLISH', '${CHANGES_CHANNEL}', ARGV[2] .. ' ' .. KEYS[1])
return 1`;

/** Hashes written again per pipeline when Redis is back. */
const REPLACE_BATCH = 200;

/**
 * Presence shared by every process through Redis. Each process counts its own connections per user in a hash
 * field named after the process, and keeps an expiring heartbeat key; a count only counts while its process's
 * heartbeat lives, so a crashed process's users go offline within a minute. Process ids are never reused, so
 * the fields of a process without a heartbeat are pruned when read; a process that shuts down removes its own.
 * What the send path reads (who is in a room, who is online) comes from a mirror of the hashes kept fresh by the
 * announcements of every change (`mirroredFields`); connection counts and what HTTP answers read Redis itself
 * (`liveFields`).
 *
 * Each process keeps its own counts (`counts`): they are what it writes, and what it answers with while Redis is
 * away — its own people only, never an error. The counts changed meanwhile (or whose write failed) are written
 * again as they stand once Redis is back; all of them after a reconnection, with the heartbeat first, in case
 * the outage outlived the heartbeat and another process pruned them.
 */
export class RedisPresenceStore {
  readonly instanceId = randomBytes(6).toString('hex');
  private readonly redis: Redis;
  /** Hears the announcements of changes, for the mirror. */
  private readonly sub: Redis;
  private readonly mirror: PresenceMirror;
  private readonly timer: NodeJS.Timeout;
  private readonly outage: RedisOutage;
  /** This process's counts, by hash key and field (without the process prefix); no zeros. */
  private readonly counts = new Map<string, Map<string, number>>();
  /** Keys whose counts Redis may not have as they stand here. */
  private readonly unwritten = new Set<string>();
  /** The command connection has been ready once (a later 'ready' is a reconnection). */
  private connectedOnce = false;

  constructor(url: string, log?: FastifyBaseLogger) {
    this.redis = redisClient(url, { maxRetriesPerRequest: 3, commandTimeout: COMMAND_TIMEOUT_MS }, log);
    this.outage = redisOutage(url, log);
    // The heartbeat first, before any count; and again whenever the connection comes back, with the counts.
    void this.beat();
    this.redis.on('ready', () => void this.connected());
    this.timer = setInterval(() => void this.beat(), HEARTBEAT_MS);
    this.timer.unref();
    this.mirror = new PresenceMirror({
      read: (key) => whenReachable(this.redis, () => this.redis.hgetall(key)),
      alive: (ids) => this.liveInstances(ids),
    });
    this.sub = redisClient(url, {}, log);
    this.sub.on('message', (_channel: string, message: string) => {
      const space = message.indexOf(' ');
      // Our own changes were read again when they were made.
      if (message.slice(0, space) !== this.instanceId) this.mirror.changed(message.slice(space + 1));
    });
    // Kept only while every change is heard: from the moment the subscription answers, until it drops.
    this.sub.on('ready', () => {
      this.sub.subscribe(CHANGES_CHANNEL).then(
        () => this.mirror.listen(),
        () => {},
      );
    });
    this.sub.on('close', () => this.mirror.deaf());
  }

  private beat() {
    return whenReachable(this.redis, () =>
      this.redis.set(`parley:instance:${this.instanceId}`, '1', 'EX', INSTANCE_TTL_S),
    ).catch(() => {});
  }

  /** Ready: the heartbeat, then the counts Redis may not have (every one after a reconnection). */
  private async connected(): Promise<void> {
    const keys = this.connectedOnce ? new Set([...this.counts.keys(), ...this.unwritten]) : this.unwritten;
    this.connectedOnce = true;
    void this.beat();
    const all = [...keys];
    this.unwritten.clear();
    for (let i = 0; i < all.length; i += REPLACE_BATCH) {
      const batch = all.slice(i, i + REPLACE_BATCH);
      await this.replace(batch).catch(() => {
        for (const key of batch) this.unwritten.add(key);
      });
    }
  }

  /** Writes this process's fields of each of `keys` as its counts stand now, in one round trip. */
  private async replace(keys: string[]): Promise<void> {
    const pipeline = this.redis.pipeline();
    for (const key of keys) {
      const own = [...(this.counts.get(key) ?? [])].flatMap(([field, n]) => [this.own(field), String(n)]);
      pipeline.eval(REPLACE_SCRIPT, 1, key, `${this.instanceId}|`, this.instanceId, ...own);
    }
    const results = await pipeline.exec();
    const failed = results?.find(([err]) => err)?.[0];
    if (!results || failed) throw failed ?? new Error('presence not written');
    for (const key of keys) this.mirror.changed(key);
  }

  private own(field: string): string {
    return `${this.instanceId}|${field}`;
  }

  private async liveInstances(ids: string[]): Promise<Set<string>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Set();
    const alive = await whenReachable(this.redis, () =>
      this.redis.mget(unique.map((id) => `parley:instance:${id}`)),
    );
    const live = new Set(unique.filter((_, i) => alive[i] !== null));
    // This process is alive, whatever its heartbeat says after an outage.
    live.add(this.instanceId);
    // A process found dead here is left out of the mirror's hashes at once.
    this.mirror.learn(unique, live);
    return live;
  }

  /** Adds `delta` to this process's count under `field` of hash `key`; returns the live fields after it. */
  async change(key: string, field: string, delta: number): Promise<string[]> {
    const fields = this.counts.get(key) ?? new Map<string, number>();
    const n = Math.max(0, (fields.get(field) ?? 0) + delta);
    if (n > 0) fields.set(field, n);
    else fields.delete(field);
    if (fields.size > 0) this.counts.set(key, fields);
    else this.counts.delete(key);
    // While Redis is away the key waits for the reconnection, which writes it as it stands then.
    if (!reachable(this.redis)) {
      this.unwritten.add(key);
      this.outage.note('presenceChangesHeldHere');
      return this.ownFields(key);
    }
    try {
      // A key whose last write failed is written whole; any other, the one field.
      if (this.unwritten.delete(key)) await this.replace([key]);
      else await this.redis.eval(SET_SCRIPT, 1, key, this.own(field), String(n), this.instanceId);
    } catch {
      this.unwritten.add(key);
      this.outage.note('presenceChangesHeldHere');
      return this.ownFields(key);
    }
    this.mirror.changed(key);
    return this.liveFields(key);
  }

  /** This process's own fields of `key`: what it knows without Redis. */
  private ownFields(key: string): string[] {
    return [...(this.counts.get(key)?.keys() ?? [])];
  }

  /**
   * The fields (without the process prefix) that some live process still counts, read from Redis, this
   * process's own as it counts them; its own alone while Redis is away.
   */
  async liveFields(key: string): Promise<string[]> {
    const others = await this.othersLive(key);
    if (!others) return this.ownFields(key);
    return [
      ...new Set([
        ...others.filter(([, v]) => Number(v) > 0).map(([k]) => fieldOf(k)),
        ...this.ownFields(key),
      ]),
    ];
  }

  /** The counts that live processes keep under hash `key`, added up; this process's alone while Redis is away. */
  async liveTotal(key: string): Promise<number> {
    let total = 0;
    for (const n of this.counts.get(key)?.values() ?? []) total += n;
    for (const [, v] of (await this.othersLive(key)) ?? []) total += Math.max(0, Number(v));
    return total;
  }

  /** The entries of the other live processes in hash `key` (their dead ones pruned), or null without Redis. */
  private async othersLive(key: string): Promise<[string, string][] | null> {
    try {
      const entries = Object.entries(await whenReachable(this.redis, () => this.redis.hgetall(key))).filter(
        ([k]) => instanceOf(k) !== this.instanceId,
      );
      const live = await this.liveInstances(entries.map(([k]) => instanceOf(k)));
      const dead = entries.filter(([k]) => !live.has(instanceOf(k))).map(([k]) => k);
      if (dead.length > 0) await this.redis.hdel(key, ...dead);
      return entries.filter(([k]) => live.has(instanceOf(k)));
    } catch {
      return null;
    }
  }

  async liveFieldsMany(keys: string[]): Promise<string[][]> {
    return Promise.all(keys.map((k) => this.liveFields(k)));
  }

  /**
   * The same fields from this process's mirror: no round trip once a hash is kept, as current as the last change
   * announced, and a crashed process's counts gone within a second of its heartbeat. This process's own as it
   * counts them; its own alone while Redis is away.
   */
  async mirroredFields(key: string): Promise<readonly string[]> {
    const own = this.counts.get(key);
    let mirrored: readonly string[];
    try {
      mirrored = reachable(this.redis) ? await this.mirror.fields(key) : [];
    } catch {
      mirrored = [];
    }
    if (!own || own.size === 0) return mirrored;
    return [...new Set([...mirrored, ...own.keys()])];
  }

  async close() {
    clearInterval(this.timer);
    this.mirror.close();
    this.sub.disconnect();
    if (reachable(this.redis)) {
      const pipeline = this.redis.pipeline();
      for (const [key, fields] of this.counts)
        pipeline.hdel(key, ...[...fields.keys()].map((f) => this.own(f)));
      pipeline.del(`parley:instance:${this.instanceId}`);
      await pipeline.exec().catch(() => {});
    }
    this.counts.clear();
    this.redis.disconnect();
  }
}

const userKey = (userId: number) => `parley:online:${userId}`;

export class RedisPresence implements Presence {
  constructor(private readonly store: RedisPresenceStore) {}
  async connect(userId: number) {
    const before = (await this.store.liveFields(userKey(userId))).length;
    await this.store.change(userKey(userId), 'c', 1);
    return before === 0;
  }
  async disconnect(userId: number) {
    return (await this.store.change(userKey(userId), 'c', -1)).length === 0;
  }
  async isOnline(userId: number) {
    return (await this.store.liveFields(userKey(userId))).length > 0;
  }
  async connections(userId: number) {
    return this.store.liveTotal(userKey(userId));
  }
  async onlineAmong(userIds: number[], options?: { mirrored?: boolean }) {
    const unique = [...new Set(userIds)];
    const keys = unique.map(userKey);
    const fields = options?.mirrored
      ? await Promise.all(keys.map((k) => this.store.mirroredFields(k)))
      : await this.store.liveFieldsMany(keys);
    return new Set(unique.filter((_, i) => (fields[i]?.length ?? 0) > 0));
  }
  async close() {
    await this.store.close();
  }
}

const roomKey = (chatId: string) => `parley:room:${chatId}`;

export class RedisRoomPresence implements RoomPresence {
  constructor(private readonly store: RedisPresenceStore) {}
  async join(chatId: string, userId: number) {
    return (await this.store.change(roomKey(chatId), String(userId), 1)).map(Number);
  }
  async leave(chatId: string, userId: number) {
    return (await this.store.change(roomKey(chatId), String(userId), -1)).map(Number);
  }
  /** From the mirror: read for every message sent. */
  async usersIn(chatId: string) {
    return (await this.store.mirroredFields(roomKey(chatId))).map(Number);
  }
  /** From the mirror too: read for every message sent. */
  async absentAmong(chatId: string, userIds: readonly number[]) {
    const fields = await this.store.mirroredFields(roomKey(chatId));
    if (fields.length === 0) return [...userIds];
    const present = new Set(fields);
    return userIds.filter((id) => !present.has(String(id)));
  }
}
