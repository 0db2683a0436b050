import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Presence } from '../presence';
import type { RoomPresence } from '../room-presence';
import { redisClient } from './client';
import { fieldOf, instanceOf, PresenceMirror } from './presence-mirror';

const HEARTBEAT_MS = 20_000;
/** A process that stops sending heartbeats (crashed, cut off) is forgotten after this: its users go offline. */
const INSTANCE_TTL_S = 60;

/** Where every change to a presence hash is announced (`<process id> <key>`), for the mirrors. */
const CHANGES_CHANNEL = 'parley:presence:changed';

/**
 * HINCRBY, and HDEL once the count is down to zero, in one step: a +1 in between must not be deleted. The
 * change is announced in the same step, so no mirror can read the hash after the change and miss the news.
 */
const CHANGE_SCRIPT = `local n = redis.call('HINCRBY', KEYS[1], ARGV[1], ARGV[2])
if n <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
redis.call('PUBLISH', '${CHANGES_CHANNEL}', ARGV[3] .. ' ' .. KEYS[1])
return n`;

/**
 * Presence shared by every process through Redis. Each process counts its own connections per user in a hash
 * field named after the process, and keeps an expiring heartbeat key; a count only counts while its process's
 * heartbeat lives, so a crashed process's users go offline within a minute. Process ids are never reused, so
 * the fields of a process without a heartbeat are dead for good and are pruned when read; a process that shuts
 * down removes its own. What the send path reads (who is in a room, who is online) comes from a mirror of the
 * hashes kept fresh by the announcements of every change (`mirroredFields`); connection counts and what HTTP
 * answers read Redis itself (`liveFields`).
 */
export class RedisPresenceStore {
  readonly instanceId = randomBytes(6).toString('hex');
  private readonly redis: Redis;
  /** Hears the announcements of changes, for the mirror. */
  private readonly sub: Redis;
  private readonly mirror: PresenceMirror;
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
    this.mirror = new PresenceMirror({
      read: (key) => this.redis.hgetall(key),
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
    return this.redis.set(`parley:instance:${this.instanceId}`, '1', 'EX', INSTANCE_TTL_S).catch(() => {});
  }

  private async liveInstances(ids: string[]): Promise<Set<string>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Set();
    const alive = await this.redis.mget(unique.map((id) => `parley:instance:${id}`));
    const live = new Set(unique.filter((_, i) => alive[i] !== null));
    // A process found dead here is left out of the mirror's hashes at once.
    this.mirror.learn(unique, live);
    return live;
  }

  /** Adds `delta` to this process's count under `field` of hash `key`; returns the live fields after it. */
  async change(key: string, field: string, delta: number): Promise<string[]> {
    const own = `${this.instanceId}|${field}`;
    const n = Number(await this.redis.eval(CHANGE_SCRIPT, 1, key, own, String(delta), this.instanceId));
    this.mirror.changed(key);
    const mine = this.own.get(key) ?? new Set<string>();
    if (n > 0) mine.add(own);
    else mine.delete(own);
    if (mine.size > 0) this.own.set(key, mine);
    else this.own.delete(key);
    return this.liveFields(key);
  }

  /** The fields (without the process prefix) that some live process still counts, read from Redis. */
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

  /**
   * The same fields from this process's mirror: no round trip once a hash is kept, as current as the last change
   * announced, and a crashed process's counts gone within a second of its heartbeat.
   */
  mirroredFields(key: string): Promise<readonly string[]> {
    return this.mirror.fields(key);
  }

  async close() {
    clearInterval(this.timer);
    this.mirror.close();
    this.sub.disconnect();
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
