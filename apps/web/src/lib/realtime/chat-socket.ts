import {
  CLOSE_AUTH_FAILED,
  CLOSE_NORMAL,
  CLOSE_NOT_FOUND,
  CLOSE_SERVICE_RESTART,
  SOCKET_RECONNECT_ATTEMPTS,
  SOCKET_RECONNECT_DELAY_MS,
} from '@parley/protocol';
import { v7 as uuidv7 } from 'uuid';
import { api } from '../http/api-client';
import { isApiError } from '../http/api-error';

// One reconnecting WebSocket, shared by the chat room and the notification channel (SPEC §4 "Chat channel
// connection"): 4001 and 4004 end it, any other close retries up to 5 times 3 s apart (after a 1012, a
// restarting server, at once), a successful open resets the count, and leaving closes with 1000. Every attempt asks `url()` again, so each gets a fresh ticket.

export type SocketStatus = 'connecting' | 'connected' | 'disconnected' | 'reconnecting';
export type SendResult = 'sent' | 'not_connected' | 'failed';

/** The part of the browser WebSocket this client uses; tests pass a fake. */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: { code: number }) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

const OPEN = 1;

export interface SocketTexts {
  connectionError: string;
  invalidFormat: string;
  authFailed: string;
  notFound: string;
}

/**
 * What a frame is checked against: a zod schema from @parley/protocol (`serverFrameSchema`,
 * `notificationFrameSchema`). Only the parts this client reads are named, so tests may pass their own.
 */
export interface FrameSchema<Frame> {
  safeParse(
    data: unknown,
  ):
    | { success: true; data: Frame }
    | { success: false; error: { issues: ReadonlyArray<{ path: PropertyKey[] }> } };
}

/**
 * A frame schema loaded on demand: building zod's schemas takes a phone a tenth of a second or more, which a
 * screen's first drawing need not wait for. `ready()` loads it (await it in the socket's `url`, beside the
 * ticket, so no frame comes before it); parsing before that is a programming error.
 */
export function lazyFrameSchema<Frame>(load: () => Promise<FrameSchema<Frame>>): {
  schema: FrameSchema<Frame>;
  ready: () => Promise<void>;
} {
  let loaded: FrameSchema<Frame> | null = null;
  let loading: Promise<void> | null = null;
  return {
    schema: {
      safeParse: (data) => {
        if (!loaded) throw new Error('The frame schema is not loaded');
        return loaded.safeParse(data);
      },
    },
    ready: () =>
      (loading ??= load().then(
        (schema) => {
          loaded = schema;
        },
        (error: unknown) => {
          // A failed load (offline) is tried again by the next attempt.
          loading = null;
          throw error;
        },
      )),
  };
}

let droppedFrames = 0;

/** How many frames failed their schema and were dropped since the page loaded (for tests). */
export const droppedFrameCount = (): number => droppedFrames;

/**
 * A frame that is JSON with a `type` but not the shape its schema says: dropped, and reported with its type
 * and the paths of what was wrong only. Never its values: a frame carries message bodies.
 */
function dropFrame(type: string, issues: ReadonlyArray<{ path: PropertyKey[] }>): void {
  droppedFrames++;
  const paths = issues.map((issue) => issue.path.map(String).join('.') || '(frame)');
  console.warn('Dropped a malformed socket frame', { type: type.slice(0, 64), paths });
}

export interface ReconnectingSocketOptions<Frame> {
  /** The address for one attempt; rejects when no ticket could be had. */
  url: () => Promise<string>;
  /** Every frame is parsed with it; one that fails is dropped (see dropFrame), never passed on. */
  schema: FrameSchema<Frame>;
  onFrame: (frame: Frame) => void;
  texts: SocketTexts;
  onStatus?: (status: SocketStatus) => void;
  /** An error text to show, or null when it clears (on a successful open). */
  onError?: (message: string | null) => void;
  /** Each successful open, first or after a reconnect: catch up and resend from here. */
  onOpen?: () => void;
  createSocket?: (url: string) => SocketLike;
  maxAttempts?: number;
  delayMs?: number;
}

const isFrame = (value: unknown): value is { type: string } =>
  typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';

export class ReconnectingSocket<Frame extends { type: string }, Out = unknown> {
  private socket: SocketLike | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private attempts = 0;
  private stopped = true;
  /** Set by 4001/4004: nothing but a new start() tries again. */
  private fatal = false;
  /** Bumped on every attempt and stop, so a late ticket or event of an old socket is ignored. */
  private generation = 0;
  private currentStatus: SocketStatus = 'disconnected';

  constructor(private readonly options: ReconnectingSocketOptions<Frame>) {}

  get status(): SocketStatus {
    return this.currentStatus;
  }

  /** Reconnect attempts made since the last successful open. */
  get attemptsMade(): number {
    return this.attempts;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.fatal = false;
    this.attempts = 0;
    void this.attempt();
  }

  /** Leaving: close with 1000 and never reconnect. */
  stop(): void {
    this.stopped = true;
    this.generation++;
    this.clearTimer();
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onopen = socket.onmessage = socket.onerror = socket.onclose = null;
      try {
        socket.close(CLOSE_NORMAL);
      } catch {
        // Closing a socket that never opened can throw in some browsers; it is gone either way.
      }
    }
    this.setStatus('disconnected');
  }

  /**
   * Try at once (the network came back, the user pressed send): skips the wait of a pending retry, or
   * starts a fresh round of attempts after they ran out. Does nothing after 4001/4004 or stop().
   */
  reconnectNow(): void {
    if (this.stopped || this.fatal) return;
    if (this.currentStatus === 'connected' || this.currentStatus === 'connecting') return;
    if (this.timer === null && this.currentStatus === 'reconnecting') return; // an attempt is under way
    this.clearTimer();
    if (this.currentStatus === 'disconnected') this.attempts = 0;
    void this.attempt();
  }

  send(frame: Out): SendResult {
    const socket = this.socket;
    if (this.currentStatus !== 'connected' || !socket || socket.readyState !== OPEN) return 'not_connected';
    try {
      socket.send(JSON.stringify(frame));
      return 'sent';
    } catch {
      return 'failed';
    }
  }

  private async attempt(): Promise<void> {
    const generation = ++this.generation;
    this.setStatus(this.attempts === 0 ? 'connecting' : 'reconnecting');
    let url: string;
    try {
      url = await this.options.url();
    } catch (error) {
      if (generation !== this.generation) return;
      // A refused ticket means the session is gone: the same as a 4001 close.
      if (isApiError(error) && error.status === 401) return this.end(this.options.texts.authFailed);
      this.options.onError?.(this.options.texts.connectionError);
      return this.retry();
    }
    if (generation !== this.generation) return;

    const socket = (this.options.createSocket ?? ((u) => new WebSocket(u) as unknown as SocketLike))(url);
    this.socket = socket;
    socket.onopen = () => {
      if (socket !== this.socket) return;
      this.attempts = 0;
      this.setStatus('connected');
      this.options.onError?.(null);
      this.options.onOpen?.();
    };
    socket.onmessage = (event) => {
      if (socket !== this.socket) return;
      let frame: unknown;
      try {
        frame = typeof event.data === 'string' ? JSON.parse(event.data) : null;
      } catch {
        frame = null;
      }
      if (!isFrame(frame)) {
        this.options.onError?.(this.options.texts.invalidFormat);
        return;
      }
      const parsed = this.options.schema.safeParse(frame);
      if (!parsed.success) return dropFrame(frame.type, parsed.error.issues);
      this.options.onFrame(parsed.data);
    };
    socket.onerror = () => {
      if (socket !== this.socket) return;
      this.options.onError?.(this.options.texts.connectionError);
    };
    socket.onclose = (event) => {
      if (socket !== this.socket) return;
      this.socket = null;
      if (this.stopped) return this.setStatus('disconnected');
      if (event.code === CLOSE_AUTH_FAILED) return this.end(this.options.texts.authFailed);
      if (event.code === CLOSE_NOT_FOUND) return this.end(this.options.texts.notFound);
      // A server restarting (1012) sends its clients elsewhere: try again at once, still within the attempts.
      this.retry(event.code === CLOSE_SERVICE_RESTART ? 0 : undefined);
    };
  }

  private retry(delayMs = this.options.delayMs ?? SOCKET_RECONNECT_DELAY_MS): void {
    if (this.stopped) return;
    const max = this.options.maxAttempts ?? SOCKET_RECONNECT_ATTEMPTS;
    if (this.attempts >= max) {
      this.setStatus('disconnected');
      return;
    }
    this.attempts++;
    this.setStatus('reconnecting');
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.attempt();
    }, delayMs);
  }

  private end(message: string): void {
    this.fatal = true;
    this.clearTimer();
    this.options.onError?.(message);
    this.setStatus('disconnected');
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private setStatus(status: SocketStatus): void {
    if (status === this.currentStatus) return;
    this.currentStatus = status;
    this.options.onStatus?.(status);
  }
}

/**
 * ws:// or wss:// for a socket path: the host of VITE_API_URL when it names one, else the page's own host;
 * wss whenever that origin is https.
 */
export function socketUrl(
  path: string,
  ticket: string,
  apiUrl: string | undefined = import.meta.env?.VITE_API_URL,
  page: { protocol: string; host: string } = window.location,
): string {
  let origin = { protocol: page.protocol, host: page.host };
  if (apiUrl && /^https?:\/\//i.test(apiUrl)) {
    const parsed = new URL(apiUrl);
    origin = { protocol: parsed.protocol, host: parsed.host };
  }
  const scheme = origin.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${origin.host}${path}?token=${encodeURIComponent(ticket)}`;
}

/** POST /api/ws/ticket/ → a single-use 30-second socket ticket; the session token never goes in a URL. */
export async function fetchSocketTicket(): Promise<string> {
  const { ticket } = await api.post<{ ticket: string }>('/ws/ticket/');
  return ticket;
}

/**
 * A client_id for a message: a UUIDv7, which begins with the time it was made, so the server's key of stored
 * client_ids grows at its end as messages arrive instead of in its middle (two thirds of the cost of
 * storing a message on SQLite when they were random). Its 74 random bits keep it unguessable.
 */
export const newClientId = (): string => uuidv7();
