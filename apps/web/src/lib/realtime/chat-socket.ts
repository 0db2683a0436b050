import { CLOSE_AUTH_FAILED, CLOSE_NORMAL, CLOSE_NOT_FOUND, CLOSE_SERVICE_RESTART } from '@parley/protocol';
import { v7 as uuidv7 } from 'uuid';
import { api } from '../http/api-client';
import { isApiError } from '../http/api-error';
import { Backoff, type BackoffOptions, waitAfterClose } from './backoff';
import { dropFrame, type FrameSchema } from './lazy-frame-schema';

// One reconnecting WebSocket, shared by the chat room and the notification channel (SPEC §4 "Chat channel
// connection", with the README's change to its retries): 4001 and 4004 end it, leaving closes with 1000 and ends
// it, and any other close is retried for as long as it takes, after the waits of backoff.ts (at most 30 s apart;
// after a 1012, a restarting server, within a second), a successful open starting them over. Every attempt asks
// `url()` again, so each gets a fresh ticket. SPEC's five attempts 3 s apart gave up on a server whose restart
// took longer than 15 s, leaving a room silent, its waiting messages unsent, until it was reloaded.

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
  /** When the next attempt is due (epoch ms) while one waits, null when none does: for a countdown. */
  onRetryAt?: (at: number | null) => void;
  createSocket?: (url: string) => SocketLike;
  /** The waits between attempts (tests fix their jitter). */
  backoff?: BackoffOptions;
}

/**
 * An attempt neither open nor failed after this long is dropped and counts as failed: a network that swallows
 * packets (a laptop waking on another network) can leave a handshake or a ticket request hanging for minutes.
 */
export const ATTEMPT_TIMEOUT_MS = 20_000;

const isFrame = (value: unknown): value is { type: string } =>
  typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';

export class ReconnectingSocket<Frame extends { type: string }, Out = unknown> {
  private socket: SocketLike | null = null;
  private readonly backoff: Backoff;
  private stopped = true;
  /** Set by 4001/4004: nothing but a new start() tries again. */
  private fatal = false;
  /** Bumped on every attempt and stop, so a late ticket or event of an old socket is ignored. */
  private generation = 0;
  private currentStatus: SocketStatus = 'disconnected';
  private deadline: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly options: ReconnectingSocketOptions<Frame>) {
    this.backoff = new Backoff(options.backoff);
  }

  get status(): SocketStatus {
    return this.currentStatus;
  }

  /** Reconnect attempts made since the last successful open. */
  get attemptsMade(): number {
    return this.backoff.failures;
  }

  /** When the next attempt is due (epoch ms), or null while none waits. */
  get retryAt(): number | null {
    return this.backoff.dueAt;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.fatal = false;
    this.backoff.reset();
    void this.attempt();
  }

  /** Leaving: close with 1000 and never reconnect. */
  stop(): void {
    this.stopped = true;
    this.generation++;
    this.clearRetry();
    this.dropSocket();
    this.setStatus('disconnected');
  }

  /**
   * Try at once (the network came back, the tab was shown, the user pressed Try now or send): skips the wait
   * of a pending retry. Does nothing while an attempt is under way, after 4001/4004 or after stop().
   */
  reconnectNow(): void {
    if (this.stopped || this.fatal) return;
    this.backoff.now();
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
    this.setStatus(this.backoff.failures === 0 ? 'connecting' : 'reconnecting');
    this.deadline = setTimeout(() => {
      this.deadline = null;
      if (generation !== this.generation || this.stopped) return;
      this.generation++;
      this.dropSocket();
      this.retry();
    }, ATTEMPT_TIMEOUT_MS);
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
      this.clearDeadline();
      this.backoff.reset();
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
      // A server restarting (1012) sends its clients elsewhere: the first attempt comes within a second.
      const random = this.options.backoff?.random ?? Math.random;
      this.retry(waitAfterClose(event.code === CLOSE_SERVICE_RESTART, this.backoff.failures, random));
    };
  }

  private retry(waitMs?: number): void {
    this.clearDeadline();
    if (this.stopped) return;
    this.setStatus('reconnecting');
    const at = this.backoff.schedule(() => {
      this.options.onRetryAt?.(null);
      void this.attempt();
    }, waitMs);
    this.options.onRetryAt?.(at);
  }

  private end(message: string): void {
    this.fatal = true;
    this.clearRetry();
    this.options.onError?.(message);
    this.setStatus('disconnected');
  }

  private clearRetry(): void {
    this.clearDeadline();
    if (this.backoff.dueAt !== null) this.options.onRetryAt?.(null);
    this.backoff.cancel();
  }

  private clearDeadline(): void {
    if (this.deadline !== null) clearTimeout(this.deadline);
    this.deadline = null;
  }

  /** Closes the current socket with 1000, its events no longer heard. */
  private dropSocket(): void {
    const socket = this.socket;
    this.socket = null;
    if (!socket) return;
    socket.onopen = socket.onmessage = socket.onerror = socket.onclose = null;
    try {
      socket.close(CLOSE_NORMAL);
    } catch {
      // Closing a socket that never opened can throw in some browsers; it is gone either way.
    }
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
