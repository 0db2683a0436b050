import type { Duplex } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { CLOSE_AUTH_FAILED, CLOSE_SERVICE_RESTART } from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import type { Bus, BusMessage } from '../../platform/bus';
import { isDatabaseUnreachable } from '../../platform/errors';
import type { Metrics, SocketChannel } from '../../platform/metrics';
import type { SessionService } from '../accounts/session.service';

// This process's open sockets, grouped by bus topic. A topic is subscribed on the bus while any local socket
// needs it, so a frame published anywhere reaches every socket everywhere, serialised once per broadcast.
// SocketSweep below keeps them honest: one ping-and-session round for all of them every 30 s.
export interface Client {
  ws: WebSocket;
  /** The connection under the socket (the upgraded request's), corked while a burst of frames is written. */
  tcp?: Duplex;
  userId: number;
  sessionId: number;
  chatId: string | null;
  /** A room socket of someone previewing a public group they have not joined: they read, never post. */
  watcher?: boolean;
  /** Opened with an API token that may only read: it receives frames and sends none that change anything. */
  readOnly?: boolean;
}

/** Sockets asked to catch up at once, and the pause before the next as many (see Hub.catchUp). */
const CATCH_UP_BATCH = 500;
const CATCH_UP_GAP_MS = 100;

/** A socket whose unsent backlog passes this is dropped; it catches up from history when it reconnects. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/** A Buffer sent as text: the frames are JSON. */
const TEXT_FRAME = { binary: false } as const;

export interface HubDeps {
  bus: Bus;
  metrics?: Pick<Metrics, 'delivered'>;
}

/**
 * A room's topic carries its frames to the sockets in the room. A user's topic carries their notification
 * frames to their notification sockets, and control (`close`) to every socket of theirs, rooms' included: one
 * topic, one subscription, per idle socket.
 */
export const topics = {
  room: (chatId: string) => `room:${chatId}`,
  user: (userId: number) => `user:${userId}`,
};
const USER_TOPIC = 'user:';

export class Hub {
  private readonly topics = new Map<
    string,
    { clients: Set<Client>; unsubscribe: Promise<() => Promise<void>> }
  >();

  /** Connections written to since the last flush: each gets one write for all its frames (see deliver). */
  private readonly corked = new Set<Duplex>();

  constructor(private readonly deps: HubDeps) {
    deps.bus.onReconnect?.(() => void this.catchUp());
  }

  /**
   * What other processes published while this one could not hear them is lost to its sockets: each is closed
   * with 1012, on which clients reconnect at once and fetch what they missed (as after a restart), in batches
   * of CATCH_UP_BATCH so they do not all come back in the same instant. Resolves once all are asked.
   */
  async catchUp(): Promise<void> {
    const clients = [...this.watched()];
    for (let i = 0; i < clients.length; i += CATCH_UP_BATCH) {
      if (i > 0) await sleep(CATCH_UP_GAP_MS);
      for (const { ws } of clients.slice(i, i + CATCH_UP_BATCH))
        if (ws.readyState === ws.OPEN) ws.close(CLOSE_SERVICE_RESTART, 'Catch up');
    }
  }

  attach(topic: string, client: Client): void {
    let entry = this.topics.get(topic);
    if (!entry) {
      const clients = new Set<Client>();
      const forNotifications = topic.startsWith(USER_TOPIC);
      entry = {
        clients,
        unsubscribe: this.deps.bus.subscribe(topic, (m) => this.deliver(clients, m, forNotifications)),
      };
      this.topics.set(topic, entry);
    }
    entry.clients.add(client);
  }

  /** Resolves once the topic's bus subscription is live (so nothing published after it is missed). */
  async ready(topic: string): Promise<void> {
    await this.topics.get(topic)?.unsubscribe;
  }

  detach(topic: string, client: Client): void {
    const entry = this.topics.get(topic);
    if (!entry) return;
    entry.clients.delete(client);
    if (entry.clients.size === 0) {
      this.topics.delete(topic);
      void entry.unsubscribe.then((off) => off());
    }
  }

  /**
   * Closes every socket of this process (a restart: clients reconnect to another process at once). Resolves
   * once all are closed; a client that has not answered the close within `withinMs` is cut off.
   */
  async closeAll(code: number, reason: string, withinMs: number): Promise<void> {
    const closing = [...this.watched()].map(
      ({ ws }) =>
        new Promise<void>((resolve) => {
          if (ws.readyState === ws.CLOSED) return resolve();
          ws.once('close', () => resolve());
          ws.close(code, reason);
        }),
    );
    const cutOff = setTimeout(() => {
      for (const client of this.watched()) client.ws.terminate();
    }, withinMs);
    await Promise.all(closing);
    clearTimeout(cutOff);
  }

  /** This process's open sockets by channel (the metrics' gauge). */
  openSockets(): Record<SocketChannel, number> {
    const counts = { room: 0, notifications: 0 };
    for (const client of this.watched()) counts[client.chatId === null ? 'notifications' : 'room'] += 1;
    return counts;
  }

  /** Every socket of this process past authentication: each is attached to its user's topic. */
  *watched(): Generator<Client> {
    for (const [topic, e] of this.topics) if (topic.startsWith(USER_TOPIC)) yield* e.clients;
  }

  /** `forNotifications`: a user's topic, whose frames are for their notification sockets (not their rooms'). */
  private deliver(clients: Set<Client>, m: BusMessage, forNotifications: boolean): void {
    // Encoded to UTF-8 once for every socket of the broadcast, not once per socket (once per variant).
    let payload: Buffer | null = null;
    let variants: Map<number, { data: string; payload?: Buffer }> | null = null;
    const payloadFor = (userId: number): Buffer => {
      if (m.variants) {
        variants ??= variantsByUser(m.variants);
        const variant = variants.get(userId);
        if (variant) {
          variant.payload ??= Buffer.from(variant.data);
          return variant.payload;
        }
      }
      payload ??= Buffer.from(m.data);
      return payload;
    };
    let written = 0;
    for (const c of clients) {
      if (m.close) {
        const { code, sessionIds, chatId } = m.close;
        const sessionMatches = !sessionIds || sessionIds === 'all' || sessionIds.includes(c.sessionId);
        const chatMatches = !chatId || c.chatId === chatId;
        const watcherMatches = !m.close.watchers || c.watcher === true;
        if (sessionMatches && chatMatches && watcherMatches) c.ws.close(code);
        continue;
      }
      if (forNotifications && c.chatId !== null) continue;
      if (m.exceptUserId === c.userId || c.ws.readyState !== c.ws.OPEN) continue;
      if (m.exceptUserIds?.includes(c.userId) || (m.onlyUserIds && !m.onlyUserIds.includes(c.userId)))
        continue;
      if (m.audience && (m.audience === 'watchers') !== (c.watcher === true)) continue;
      if (c.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
        c.ws.terminate();
        continue;
      }
      const bytes = payloadFor(c.userId);
      this.cork(c);
      c.ws.send(bytes, TEXT_FRAME);
      written += 1;
    }
    if (written > 0) this.deps.metrics?.delivered(written);
  }

  /**
   * Holds a connection's writes until the code now running is done: a batch of messages announced together
   * (message-writer.ts) reaches each socket as one write, one system call, instead of one per frame.
   */
  private cork(c: Client): void {
    const tcp = c.tcp;
    if (!tcp || this.corked.has(tcp)) return;
    if (this.corked.size === 0) process.nextTick(() => this.uncorkAll());
    tcp.cork();
    this.corked.add(tcp);
  }

  private uncorkAll(): void {
    for (const tcp of this.corked) tcp.uncork();
    this.corked.clear();
  }
}

/** Each user's variant of a frame (BusMessage.variants), shared by the users it names. */
function variantsByUser(list: NonNullable<BusMessage['variants']>) {
  const byUser = new Map<number, { data: string; payload?: Buffer }>();
  for (const { data, userIds } of list) {
    const variant = { data };
    for (const id of userIds) byUser.set(id, variant);
  }
  return byUser;
}

export const PING_INTERVAL_MS = 30_000;

export interface SocketSweepDeps {
  hub: Hub;
  sessions: Pick<SessionService, 'liveAmong'>;
  log: FastifyBaseLogger;
  intervalMs?: number;
}

/**
 * Liveness for every socket of the process on one timer (DESIGN §6), instead of a timer and a query per socket.
 * Each round terminates the sockets that have not answered the previous round's ping, pings the others and
 * closes with 4001 those whose session has ended (logout, reset, expiry), with one look-up for all sessions.
 */
export class SocketSweep {
  /** Pinged and not yet answered. */
  private readonly unanswered = new WeakSet<WebSocket>();
  private timer: NodeJS.Timeout | null = null;
  private round: Promise<void> | null = null;

  constructor(private readonly deps: SocketSweepDeps) {}

  start(): this {
    if (this.timer) return this;
    this.timer = setInterval(() => void this.sweep(), this.deps.intervalMs ?? PING_INTERVAL_MS);
    this.timer.unref();
    return this;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.round;
  }

  /** One round now; a round still waiting for its look-up is not doubled. */
  sweep(): Promise<void> {
    this.round ??= this.run().finally(() => {
      this.round = null;
    });
    return this.round;
  }

  private async run(): Promise<void> {
    const pinged: Client[] = [];
    for (const client of [...this.deps.hub.watched()]) {
      const { ws } = client;
      if (ws.readyState !== ws.OPEN) continue;
      if (this.unanswered.has(ws)) {
        ws.terminate();
        continue;
      }
      this.unanswered.add(ws);
      ws.once('pong', () => this.unanswered.delete(ws));
      ws.ping();
      pinged.push(client);
    }
    if (pinged.length === 0) return;
    let live: Set<number>;
    try {
      live = await this.deps.sessions.liveAmong(pinged.map((c) => c.sessionId));
    } catch (err) {
      // Keep the sockets: a database hiccup must not log everyone out. The next round asks again. An outage is
      // logged once by the database layer.
      if (!isDatabaseUnreachable(err)) this.deps.log.error({ err }, 'socket session sweep failed');
      return;
    }
    for (const c of pinged) if (!live.has(c.sessionId)) c.ws.close(CLOSE_AUTH_FAILED);
  }
}
