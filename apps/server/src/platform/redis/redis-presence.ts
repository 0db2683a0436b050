import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Presence } from '../presence';
import type { RoomPresence } from '../room-presence';
import { redisClient } from './client';

const HEARTBEAT_MS = 20_000;
/** A process that stops sending heartbeats (crashed, cut off) is forgotten after this: its users go offline. */
const INSTANCE_TTL_S = 60;

/** HINCRBY, and HDEL once the count is down to zero, in one step: a +1 in between must not be deleted. */
const CHANGE_SCRIPT = `local n = redis.call('HINCRBY', KEYS[1], ARGV[1], ARGV[2])
if n <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
return n`;

const instanceOf = (hashField: string) => hashField.split('|')[0] ?? '';
const fieldOf = (hashField: string) => hashField.split('|')[1] ?? '';

/**
 * Presence shared by every process through Redis. Each process counts its own connections per user in a hash
 * field named after the process, and keeps an expiring heartbeat key; a count only counts while its process's
 * heartbeat lives, so a crashed process's users go offline within a minute. Process ids are never reused, so
 * the fields of a process without a heartbeat are dead for good and are pruned when read; a process that shuts
 * down removes its own.
 */
export class RedisPresenceStore {
  readonly instanceId = randomBytes(6).toString('hex');
  private readonly redis: Redis;
  private readonly timer: NodeJS.Timeout;
  /** This process's hash fields with a count, by key: removed on close. */
  private readonly own = new Map<string, Set<string>>();

  constructor(url: string, log?: FastifyBaseLogger) {
    this.redis = redisClient(url, { maxRetriesPerRequest: 3 }, log);
    // First in the queue, before any count; and again whenever the connection comes back.
    void this.beat();
    this.redis.on('ready', () => void this.beat());
    this.timer = setInterval(() => void this.beat(), HEARTBEAT_MS);
    this.timer.unref();
  }

  private beat() {
    return this.redis.set(`parley:instance:${this.instanceId}`, '1', 'EX', INSTANCE_TTL_S).catch(() => {});
  }

  private async liveInstances(ids: string[]): Promise<Set<string>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Set();
    const alive = await this.redis.mget(unique.map((id) => `parley:instance:${id}`));
    return new Set(unique.filter((_, i) => alive[i] !== null));
  }

  /** Adds `delta` to this process's count under `field` of hash `key`; returns the live fields after it. */
  async change(key: string, field: string, delta: number): Promise<string[]> {
    const own = `${this.instanceId}|${field}`;
    const n = Number(await this.redis.eval(CHANGE_SCRIPT, 1, key, own, String(delta)));
    const mine = this.own.get(key) ?? new Set<string>();
    if (n > 0) mine.add(own);
    else mine.delete(own);
    if (mine.size > 0) this.own.set(key, mine);
    else this.own.delete(key);
    return this.liveFields(key);
  }

  /** The fields (without the process prefix) that some live process still counts. */
  async liveFields(key: string): Promise<string[]> {
    const entries = Object.entries(await this.redis.hgetall(key));
    const live = await this.liveInstances(entries.map(([k]) => instanceOf(k)));
    const dead = entries.filter(([k]) => !live.has(instanceOf(k))).map(([k]) => k);
    if (dead.length > 0) await this.redis.hdel(key, ...dead);
    return [
      ...new Set(
        entries.filter(([k, v]) => Number(v) > 0 && live.has(instanceOf(k))).map(([k]) => fieldOf(k)),
      ),
    ];
  }

  /** The counts that live processes keep under hash `key`, added up. */
  async liveTotal(key: string): Promise<number> {
    const entries = Object.entries(await this.redis.hgetall(key));
    const live = await this.liveInstances(entries.map(([k]) => instanceOf(k)));
    return entries.reduce((sum, [k, v]) => (live.has(instanceOf(k)) ? sum + Math.max(0, Number(v)) : sum), 0);
  }

  async liveFieldsMany(keys: string[]): Promise<string[][]> {
    return Promise.all(keys.map((k) => this.liveFields(k)));
  }

  async close() {
    clearInterval(this.timer);
    const pipeline = this.redis.pipeline();
    for (const [key, fields] of this.own) pipeline.hdel(key, ...fields);
    pipeline.del(`parley:instance:${this.instanceId}`);
    await pipeline.exec().catch(() => {});
    this.own.clear();
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
  async onlineAmong(userIds: number[]) {
    const unique = [...new Set(userIds)];
    const fields = await this.store.liveFieldsMany(unique.map(userKey));
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
  async usersIn(chatId: string) {
    return (await this.store.liveFields(roomKey(chatId))).map(Number);
  }
}
