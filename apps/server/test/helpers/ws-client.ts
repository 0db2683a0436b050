import WebSocket from 'ws';
import type { Json, TestApp } from './test-app';

// A small promise-based WebSocket client for the integration tests: real sockets against the real server.
// Every frame received is kept in `frames` (for "never received" checks) and in a queue that `next` takes
// from, so a test waits for the frame it means, with a timeout, and never sleeps for a fixed time.

export interface Frame {
  type: string;
  // biome-ignore lint/suspicious/noExplicitAny: frames are arbitrary JSON the tests assert on.
  [key: string]: any;
}

export interface CloseInfo {
  code: number;
  reason: string;
}

const DEFAULT_TIMEOUT_MS = 3000;

type Predicate = (frame: Frame) => boolean;

interface Waiter {
  type: string;
  predicate: Predicate;
  resolve: (frame: Frame) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

export class WsClient {
  /** Every frame received, in order, whether or not a `next` took it. */
  readonly frames: Frame[] = [];
  private readonly queue: Frame[] = [];
  private readonly waiters = new Set<Waiter>();
  private closeInfo: CloseInfo | null = null;
  private readonly closeWaiters = new Set<(info: CloseInfo) => void>();
  readonly opened: boolean;

  private constructor(
    readonly ws: WebSocket,
    opened: boolean,
    readonly label: string,
  ) {
    this.opened = opened;
  }

  /** Connects; resolves once the socket is open (or already closed, for refusals checked with `closed()`). */
  static connect(url: string, options: { headers?: Record<string, string>; label?: string } = {}) {
    return new Promise<WsClient>((resolve) => {
      const ws = new WebSocket(url, { headers: options.headers });
      let client: WsClient | null = null;
      const early: Buffer[] = [];
      let earlyClose: CloseInfo | null = null;
      ws.on('error', () => {
        // A refused upgrade or a reset shows up as a close (code 1006); nothing to do here.
      });
      ws.on('message', (data: Buffer) => {
        if (client) client.receive(data);
        else early.push(data);
      });
      ws.on('close', (code, reason) => {
        const info = { code, reason: reason.toString('utf8') };
        if (client) client.onClose(info);
        else {
          earlyClose = info;
          finish(false);
        }
      });
      const finish = (opened: boolean) => {
        if (client) return;
        client = new WsClient(ws, opened, options.label ?? url);
        for (const data of early.splice(0)) client.receive(data);
        if (earlyClose) client.onClose(earlyClose);
        resolve(client);
      };
      ws.on('open', () => finish(true));
    });
  }

  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  /** Sends an object as JSON, or a string / bytes as they are. */
  send(frame: object | string | Buffer): void {
    this.ws.send(typeof frame === 'string' || Buffer.isBuffer(frame) ? frame : JSON.stringify(frame));
  }

  /** The next frame of this type (and matching `predicate`) not yet taken; waits up to `timeoutMs`. */
  next(type: string, predicate: Predicate = () => true, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<Frame> {
    const index = this.queue.findIndex((f) => f.type === type && predicate(f));
    if (index !== -1) return Promise.resolve(this.queue.splice(index, 1)[0] as Frame);
    if (this.closeInfo) {
      return Promise.reject(
        new Error(`${this.label}: closed (${this.closeInfo.code}) before a '${type}' frame arrived`),
      );
    }
    return new Promise<Frame>((resolve, reject) => {
      const waiter: Waiter = {
        type,
        predicate,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          reject(
            new Error(
              `${this.label}: no '${type}' frame within ${timeoutMs} ms; received: ${JSON.stringify(this.frames)}`,
            ),
          );
        }, timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  /** Waits for `count` frames of a type (each matching `predicate`), in arrival order. */
  async take(type: string, count: number, predicate?: Predicate, timeoutMs?: number): Promise<Frame[]> {
    const out: Frame[] = [];
    for (let i = 0; i < count; i++) out.push(await this.next(type, predicate, timeoutMs));
    return out;
  }

  /** Every frame of this type received so far (taken or not). */
  received(type: string, predicate: Predicate = () => true): Frame[] {
    return this.frames.filter((f) => f.type === type && predicate(f));
  }

  /** Resolves with the close code and reason once the socket has closed; rejects after `timeoutMs`. */
  closed(timeoutMs = DEFAULT_TIMEOUT_MS): Promise<CloseInfo> {
    if (this.closeInfo) return Promise.resolve(this.closeInfo);
    return new Promise<CloseInfo>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.closeWaiters.delete(done);
        reject(new Error(`${this.label}: still open after ${timeoutMs} ms`));
      }, timeoutMs);
      const done = (info: CloseInfo) => {
        clearTimeout(timer);
        resolve(info);
      };
      this.closeWaiters.add(done);
    });
  }

  /** Closes from this side (1000 unless told) and waits for the close to complete. */
  async close(code = 1000): Promise<CloseInfo> {
    if (!this.closeInfo && this.ws.readyState !== WebSocket.CLOSED) this.ws.close(code);
    return this.closed();
  }

  private receive(data: Buffer): void {
    let frame: Frame;
    try {
      const parsed: Json = JSON.parse(data.toString('utf8'));
      frame = parsed && typeof parsed === 'object' ? parsed : { type: '__raw', data: parsed };
    } catch {
      frame = { type: '__raw', data: data.toString('utf8') };
    }
    this.frames.push(frame);
    for (const w of this.waiters) {
      if (w.type === frame.type && w.predicate(frame)) {
        this.waiters.delete(w);
        clearTimeout(w.timer);
        w.resolve(frame);
        return;
      }
    }
    this.queue.push(frame);
  }

  private onClose(info: CloseInfo): void {
    this.closeInfo = info;
    for (const w of this.waiters) {
      clearTimeout(w.timer);
      w.reject(new Error(`${this.label}: closed (${info.code}) before a '${w.type}' frame arrived`));
    }
    this.waiters.clear();
    for (const done of this.closeWaiters) done(info);
    this.closeWaiters.clear();
  }
}

/** The ws:// address of a socket path on the test app, with `?token=` when a credential is given. */
export function wsUrl(t: TestApp, path: string, credential?: string): string {
  const url = new URL(path, t.baseUrl.replace(/^http/, 'ws'));
  if (credential !== undefined) url.searchParams.set('token', credential);
  return url.toString();
}

/** A fresh single-use socket ticket for a session token (POST /api/ws/ticket/). */
export async function ticketFor(t: TestApp, token: string): Promise<string> {
  const res = await t.post('/api/ws/ticket/', {}, token);
  if (res.status !== 200 || typeof res.body?.ticket !== 'string') {
    throw new Error(`ticket: expected 200 with a ticket, got ${res.status} ${res.text}`);
  }
  return res.body.ticket;
}

export interface ConnectOptions {
  /** Put the session token itself in ?token= instead of a fresh ticket. */
  rawToken?: boolean;
  headers?: Record<string, string>;
  label?: string;
}

/** Opens a socket with a fresh ticket for `token` (or the token itself); no waiting beyond the open. */
export async function connectWs(
  t: TestApp,
  path: string,
  token: string,
  options: ConnectOptions = {},
): Promise<WsClient> {
  const credential = options.rawToken ? token : await ticketFor(t, token);
  return WsClient.connect(wsUrl(t, path, credential), {
    headers: options.headers,
    label: options.label ?? path,
  });
}

export const roomPath = (chatId: string) => `/ws/chatroom/${encodeURIComponent(chatId)}/`;
export const NOTIFICATIONS_PATH = '/ws/notifications/';

/**
 * Joins a chat room socket and waits until the server has put it in the room: its own in_chat_users_update
 * and in_chat_count (taken here, so later `next` calls see only what follows).
 */
export async function joinRoom(
  t: TestApp,
  token: string,
  chatId: string,
  options: ConnectOptions = {},
): Promise<WsClient> {
  const client = await connectWs(t, roomPath(chatId), token, { label: `room ${chatId}`, ...options });
  await client.next('in_chat_users_update');
  await client.next('in_chat_count');
  return client;
}

/** Opens the notification socket and waits for its first notification_count (returned with the client). */
export async function openNotifications(
  t: TestApp,
  token: string,
  options: ConnectOptions = {},
): Promise<{ client: WsClient; count: number }> {
  const client = await connectWs(t, NOTIFICATIONS_PATH, token, { label: 'notifications', ...options });
  const first = await client.next('notification_count');
  return { client, count: first.count };
}

/**
 * Polls `check` until it returns a value other than undefined, for state the server writes after a socket
 * event with no frame to wait for (last_seen after the last socket closes). Throws after `timeoutMs`.
 */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  what: string,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 15));
  }
}
