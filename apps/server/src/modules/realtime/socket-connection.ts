import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import {
  CLOSE_TOO_MANY,
  CLOSE_TRY_AGAIN_LATER,
  type NotificationFrame,
  type ServerFrame,
} from '@parley/protocol';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { AppContext } from '../../context';
import { HttpError, isDatabaseUnreachable, isStorageFull, warnStorageFull } from '../../platform/errors';
import type { Session } from '../accounts/session.service';
import { type Client, topics } from './hub';

// What both socket channels (a room's, the notifications') do with a connection: their route options, the
// Client an authenticated socket becomes, and the presence and control every socket shares.

export const sendFrame = (ws: WebSocket, frame: ServerFrame | NotificationFrame) => {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
};

const OPENINGS_FULL = 'Too many sockets opening. Please try again.';

/** The gate's queue is full, or an opening held its place too long: the client is told to try again later. */
export class OpeningsBusyError extends HttpError {
  constructor() {
    super(503, { detail: OPENINGS_FULL }, { 'retry-after': '5' });
  }
}

/**
 * A FIFO semaphore for socket openings: at most `limit` run at once, the rest wait in arrival order, and `refuse`
 * says when `queueBound` are already waiting (the caller then refuses instead of queueing). Ten thousand sockets
 * reconnecting after a restart are thus admitted at the pace the database answers, instead of queueing
 * thousands of pool waits that time out together (503s after connectionTimeoutMillis).
 */
export class OpeningGate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  /** The most openings ever in flight at once (tests and metrics read it). */
  peakInFlight = 0;
  /** Openings refused because the queue was full. */
  refused = 0;
  /** Openings that held their place past `limitMs` and were given up. */
  timedOut = 0;

  /** `limitMs`: how long one opening may hold its place, so one that hangs cannot stop the gate for good. */
  constructor(
    readonly limit: number,
    readonly queueBound: number,
    readonly limitMs = 10_000,
  ) {}

  get inFlight(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** True when a new opening would find the queue at its bound: refuse it (and count the refusal). */
  refuse(): boolean {
    if (this.running < this.limit || this.waiting.length < this.queueBound) return false;
    this.refused++;
    return true;
  }

  /**
   * Runs `task` once a place is free, in arrival order. The place is given back when the task ends or after
   * `limitMs`, whichever is first; past the limit this rejects with OpeningsBusyError and the task finishes
   * (or fails) on its own, unheard.
   */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    this.peakInFlight = Math.max(this.peakInFlight, this.running);
    let timer: NodeJS.Timeout | undefined;
    try {
      const work = task();
      const tooSlow = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          this.timedOut++;
          work.catch(() => {});
          reject(new OpeningsBusyError());
        }, this.limitMs);
      });
      return await Promise.race([work, tooSlow]);
    } finally {
      clearTimeout(timer);
      const next = this.waiting.shift();
      // The place passes straight to the next in line (running stays the same), so none can jump the queue.
      if (next) next();
      else this.running--;
    }
  }
}

/** Each app's gates, by its lifecycle (one per app): what tests and operators read of a reconnecting crowd. */
const gatesByApp = new WeakMap<object, { sockets?: OpeningGate; tickets?: OpeningGate }>();

/** Notes an app's gate (socket openings, or ticket requests) so `openingGates` finds it. */
export function noteGate(lifecycle: object, kind: 'sockets' | 'tickets', gate: OpeningGate): void {
  gatesByApp.set(lifecycle, { ...gatesByApp.get(lifecycle), [kind]: gate });
}

/** The gates of the app with this lifecycle, once its socket routes are made. */
export const openingGates = (lifecycle: object) => gatesByApp.get(lifecycle) ?? {};

/** The route options, tracking and error handling of the socket routes, made once per app. */
export function socketRouting(deps: Pick<AppContext, 'config' | 'lifecycle' | 'log'>) {
  const { config, lifecycle, log } = deps;
  const gate = new OpeningGate(config.socketOpeningsInFlight, config.socketOpeningsQueued);
  noteGate(lifecycle, 'sockets', gate);
  // A process that is stopping refuses a new socket before the handshake (503): behind nginx the next process
  // takes it (proxy_next_upstream), and a client alone with this process tries again after its usual delay,
  // instead of being closed with 1012 right after opening and trying again at once, attempt after attempt.
  // So does one whose openings queue is full (a reconnecting crowd): the client tries again later.
  const onRequest = async (_req: FastifyRequest, reply: FastifyReply) => {
    if (lifecycle.stopping) return reply.code(503).send({ detail: 'Service restart' });
    if (gate.refuse()) throw new OpeningsBusyError();
  };
  return {
    gate,
    /**
     * Runs a socket's opening (ticket redeemed, membership checked, presence joined) under the gate; skipped when
     * the socket closed while it waited.
     */
    admit(ws: WebSocket, opening: () => Promise<void>): Promise<void> {
      return gate
        .run(async () => {
          if (ws.readyState === ws.OPEN) await opening();
        })
        .catch((err) => {
          if (!(err instanceof OpeningsBusyError)) throw err;
          ws.close(CLOSE_TRY_AGAIN_LATER, 'Try again later');
        });
    },
    /**
     * A socket route. An opening socket is tracked like its frames (a stop closes the database only after it has
     * finished); a plain GET without an upgrade is not a socket and gets the API's 404.
     */
    route<P>(
      app: FastifyInstance,
      url: string,
      open: (ws: WebSocket, req: FastifyRequest<{ Params: P }>) => Promise<void>,
    ): void {
      app.route<{ Params: P }>({
        method: 'GET',
        url,
        onRequest,
        handler: (_req, reply) => reply.code(404).send({ detail: 'Not found.' }),
        wsHandler: (ws, req) => lifecycle.track(open(ws, req)),
      });
    },
    /** A socket error is the client's (a malformed frame, a connection reset): noted, and the socket dropped. */
    onError(this: WebSocket, err: Error) {
      log.warn({ err }, 'socket error');
      this.terminate();
    },
  };
}

export type SocketRouting = ReturnType<typeof socketRouting>;

/**
 * What an open socket keeps of its upgrade request besides its Client (which has the connection): the request id
 * and a way to log with that id. The request itself (its headers, Fastify's request and reply, the upgrade's
 * ServerResponse) is let go of, so an idle socket costs little more than ws's own objects (100,000 sockets on
 * one process).
 */
export interface Upgrade {
  requestId: string;
  /** A logger carrying the request id, made when something is logged (rarely), not kept per socket. */
  log(): FastifyBaseLogger;
}

/** The socket's Client, made once it is authenticated, with its upgrade request let go of (see Upgrade). */
export function letGoOfRequest(
  log: FastifyBaseLogger,
  ws: WebSocket,
  req: FastifyRequest,
  session: Session,
  chatId: string | null,
  onError: (this: WebSocket, err: Error) => void,
): { upgrade: Upgrade; client: Client } {
  const tcp = req.raw.socket;
  // @fastify/websocket's error listener closes over the request and its reply for the socket's whole life.
  ws.removeAllListeners('error');
  ws.on('error', onError);
  // The upgrade's ServerResponse stays assigned to the connection (and holds the request) until detached.
  (tcp as { _httpMessage?: ServerResponse | null })._httpMessage?.detachSocket(tcp as Socket);
  const requestId = req.id;
  return {
    upgrade: { requestId, log: () => log.child({ reqId: requestId }) },
    client: {
      ws,
      tcp,
      userId: session.userId,
      sessionId: session.sessionId,
      chatId,
      ...(session.scopes && !session.scopes.includes('write') ? { readOnly: true } : {}),
    },
  };
}

export type WatchDeps = Pick<AppContext, 'config' | 'lifecycle' | 'presence' | 'hub' | 'users'> & {
  /** Where a person coming online or going offline is told (the app's; a test of sockets alone may leave it). */
  events?: AppContext['events'];
};

/**
 * Presence and control shared by both channels. The user's topic also puts the socket in the process's ping
 * and session sweep (SocketSweep), which drops it when it stops answering or its session ends.
 * Returns false when the socket was closed for being one too many of its user's.
 */
export async function watch(
  deps: WatchDeps,
  client: Client,
  upgrade: Upgrade,
  onClose?: () => Promise<void>,
): Promise<boolean> {
  const { config, lifecycle, presence, hub, users, events } = deps;
  const { ws } = client;
  const connected = presence
    .connect(client.userId)
    .then((cameOnline) => {
      // The people who share a chat with them see them online (RealtimeService's presence frames).
      if (cameOnline) events?.emit('presence.changed', { userId: client.userId });
    })
    .catch((err) => upgrade.log().error({ err }, 'presence connect failed'));
  const topic = topics.user(client.userId);
  hub.attach(topic, client);
  ws.on('close', () => {
    hub.detach(topic, client);
    // Tracked: a stopping process closes its database and Redis only after this has run.
    void lifecycle.track(
      (async () => {
        await connected;
        await onClose?.();
        if (await presence.disconnect(client.userId)) {
          try {
            await users.markSeen(client.userId);
          } finally {
            // Offline for the others even when the last-seen time could not be written.
            events?.emit('presence.changed', { userId: client.userId });
          }
        }
      })().catch((err) => {
        // A full disk or an unreachable database fails every closing socket's last-seen update alike: the full
        // disk is warned of once a minute, the outage told once by the database layer, not once per socket.
        if (isStorageFull(err)) warnStorageFull(upgrade.log());
        else if (!isDatabaseUnreachable(err)) upgrade.log().error({ err }, 'socket close handling failed');
      }),
    );
  });
  // Counted online before anything else is announced about this connection, and nothing published to the user
  // after this returns is missed.
  await Promise.all([connected, hub.ready(topic)]);
  // Counted first, then checked, so sockets opening at once on several processes cannot all slip under the limit.
  if ((await presence.connections(client.userId)) > config.socketsPerUser) {
    ws.close(CLOSE_TOO_MANY, 'Too many connections');
    return false;
  }
  return true;
}

/**
 * Closes a socket whose opening failed because the database is away with 1013, so its client tries again later
 * (a 4001 or 4004 would tell it to stop for good); any other error is thrown on.
 */
export function closeWhileUnreachable(ws: WebSocket, err: unknown): void {
  if (!isDatabaseUnreachable(err)) throw err;
  ws.close(CLOSE_TRY_AGAIN_LATER, 'Try again later');
}
