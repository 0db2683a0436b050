import { CLOSE_AUTH_FAILED, CLOSE_NOT_FOUND, CLOSE_SERVICE_RESTART } from '@parley/protocol';
import { expect } from 'vitest';
import type { Db } from '../../src/db/database';
import type { Person } from '../../src/test-support/seed-people';
import { historyAfter, storedMessages } from './chat-data';
import { LoadSocket } from './load-socket';
import { RoomLedger, type Written } from './room-sender';
import type { Endpoint } from './server-process';
import type { Json } from './test-app';
import { sleep, until } from './waits';

// A room client that keeps itself connected through an outage, for the outage tests (PostgreSQL, Redis).

export interface RoomClientOptions {
  /** The wait before each attempt to open the socket again; after a 1012 (a restart) the first is at once. */
  reconnectAfterMs: number;
  /**
   * After each open, read again the whole stretch it holds and what came after (frames may have been lost
   * while it was open), rather than only what came after the newest message it knows.
   */
  rereadHeld?: boolean;
  /** A message refused with an error frame is sent again this long after (a person pressing Retry); unset: never. */
  retryRefusedAfterMs?: number;
  /** Acknowledges what others send (read_messages), as an open room does. */
  markRead?: boolean;
}

/**
 * A room client as the web client behaves: pending by client_id, merged by id; it reconnects when its socket
 * closes (but for a 4001 or a 4004), reads what it missed and resends what is unconfirmed. `options` picks the
 * rest of the web client's manners a test wants.
 */
export class RoomClient extends RoomLedger {
  /** Error frames other than rate_limited, in the order they came. */
  readonly failures: Json[] = [];
  /** The users of the last in_chat_users_update. */
  inRoom: number[] = [];
  readonly closeCodes: number[] = [];
  reconnects = 0;
  private socket: LoadSocket | null = null;
  private stopped = false;
  private ready = false;

  constructor(
    readonly proc: Endpoint,
    person: Person,
    chatId: string,
    readonly label: string,
    private readonly options: RoomClientOptions,
  ) {
    super(person, chatId);
  }

  /** The error frames naming a message (other than rate_limited). */
  get refusals(): Json[] {
    return this.failures.filter((f) => f.client_id);
  }

  /** The error frames naming no message. */
  get otherErrors(): Json[] {
    return this.failures.filter((f) => !f.client_id);
  }

  get isOpen(): boolean {
    return this.ready && !!this.socket?.isOpen;
  }

  /** Opens the room socket; from then on it reconnects by itself. */
  async start(): Promise<void> {
    const from = this.options.rereadHeld ? Math.max(0, this.firstId - 1) : this.lastId;
    const socket = await LoadSocket.joinRoom(this.proc, this.chatId, this.person.token, (f) =>
      this.onFrame(f),
    );
    this.socket = socket;
    let abandoned = false;
    void socket.closed.then(({ code }) => {
      this.ready = false;
      this.closeCodes.push(code);
      if (abandoned || this.stopped || code === CLOSE_AUTH_FAILED || code === CLOSE_NOT_FOUND) return;
      void this.reconnect(code === CLOSE_SERVICE_RESTART ? 0 : this.options.reconnectAfterMs);
    });
    // After every open, as the web client does: what arrived while away, then what waits unconfirmed.
    try {
      this.caughtUp(await historyAfter(this.proc, this.person.token, this.chatId, from));
    } catch (err) {
      // The catch-up was refused (the database is away): this opening failed, and whoever called tries again.
      abandoned = true;
      socket.ws.terminate();
      throw err;
    }
    for (const m of this.pending()) this.send(m);
    this.ready = true;
  }

  private async reconnect(firstDelayMs: number): Promise<void> {
    for (let delay = firstDelayMs; !this.stopped; delay = this.options.reconnectAfterMs) {
      await sleep(delay);
      try {
        await this.start();
        this.reconnects += 1;
        return;
      } catch {
        // Not open yet (the ticket or the catch-up was refused): try again.
      }
    }
  }

  private onFrame(f: Json): void {
    this.take(f);
    if (f.type === 'in_chat_users_update') this.inRoom = f.user_ids;
    else if (f.type === 'error') {
      if (f.code !== 'rate_limited') this.failures.push(f);
      if (typeof f.client_id === 'string') this.retryLater(f.client_id);
    } else if (f.type === 'chat_message' && this.options.markRead && f.message.sender !== this.person.id)
      this.socket?.send({ type: 'read_messages', message_ids: [f.message.id] });
  }

  private retryLater(clientId: string): void {
    const after = this.options.retryRefusedAfterMs;
    if (after === undefined) return;
    setTimeout(() => {
      const m = this.attempted.find((a) => a.clientId === clientId);
      if (m && !this.confirmed.has(clientId) && this.isOpen) this.send(m);
    }, after);
  }

  private send(m: Written): void {
    this.socket?.send({ type: 'chat_message', body: m.body, client_id: m.clientId });
  }

  /** The next message: pending at once, sent now if the socket is up (else on the next open). */
  write(): Written {
    const m = this.nextMessage(this.label, `${this.label} message`);
    if (this.isOpen) this.send(m);
    return m;
  }

  /** Writes the next message and waits for its echo; the id it was stored under. */
  async writeConfirmed(timeoutMs: number): Promise<number> {
    const m = this.write();
    await until(
      () => this.confirmed.has(m.clientId),
      `${this.label}'s ${m.clientId} acknowledged`,
      timeoutMs,
    );
    return this.confirmed.get(m.clientId) as number;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.socket?.close();
  }
}

/**
 * Waits until every message the clients wrote is acknowledged, then checks the chat's stored messages: each
 * written is stored once, none twice under its client_id, and each acknowledged one under the id its echo
 * carried. Returns them.
 */
export async function expectStoredOnce(db: Db, chatId: string, clients: RoomLedger[], timeoutMs: number) {
  await until(() => clients.every((c) => c.pending().length === 0), 'every message acknowledged', timeoutMs);
  const stored = await storedMessages(db, chatId);
  const keys = stored.map((m) => `${m.sender_id}/${m.client_id}`);
  expect(new Set(keys).size, 'no message stored twice').toBe(keys.length);
  expect(stored).toHaveLength(clients.reduce((n, c) => n + c.attempted.length, 0));
  for (const c of clients) {
    const own = stored.filter((m) => m.sender_id === c.person.id);
    for (const [clientId, id] of c.confirmed)
      expect(own.filter((m) => m.client_id === clientId).map((m) => m.id)).toEqual([id]);
  }
  return stored;
}
