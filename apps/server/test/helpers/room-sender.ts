import type { Person } from '../../src/test-support/seed-people';
import { historyAfter } from './chat-data';
import { LoadSocket } from './load-socket';
import type { Endpoint } from './server-process';
import type { Json } from './test-app';

// Room clients for the fault tests (a kill -9, a rolling restart, an outage of PostgreSQL or Redis): each behaves
// as the web client does. A Sender is driven by its test (connect, then resend and catch up); a RoomClient
// (room-client.ts) reconnects by itself. Both keep their messages in a RoomLedger.

export interface Written {
  clientId: string;
  body: string;
}

/**
 * What a room client knows: the messages it wrote, pending by client_id until their echo arrives, and the
 * room's messages by id, from its sockets and its catch-ups.
 */
export class RoomLedger {
  seq = 0;
  readonly attempted: Written[] = [];
  /** client_id → stored id, for its own messages whose echo arrived. */
  readonly confirmed = new Map<string, number>();
  /** Every message this client knows (socket frames and catch-up), by id. */
  readonly view = new Map<number, Json>();
  /** Ids of chat_message frames as they arrived on its sockets, over every connection. */
  readonly liveIds: number[] = [];
  /** Messages refused with rate_limited. */
  rateLimited = 0;

  constructor(
    readonly person: Person,
    readonly chatId: string,
  ) {}

  /** The newest message it knows (0: none). */
  get lastId(): number {
    let max = 0;
    for (const id of this.view.keys()) if (id > max) max = id;
    return max;
  }

  /** The oldest message it knows (0: none). */
  get firstId(): number {
    let min = 0;
    for (const id of this.view.keys()) if (min === 0 || id < min) min = id;
    return min;
  }

  pending(): Written[] {
    return this.attempted.filter((m) => !this.confirmed.has(m.clientId));
  }

  /** A frame from its socket: a rate_limited refusal is counted; a message is known, and confirmed if its own. */
  protected take(f: Json): void {
    if (f.type === 'error' && f.code === 'rate_limited') this.rateLimited += 1;
    if (f.type !== 'chat_message') return;
    const m = f.message;
    this.liveIds.push(m.id);
    this.view.set(m.id, m);
    if (m.sender === this.person.id && f.client_id) this.confirmed.set(f.client_id, m.id);
  }

  /** Messages read over HTTP (what arrived while it was away). */
  protected caughtUp(messages: Json[]): void {
    for (const m of messages) this.view.set(m.id, m);
  }

  /** The next message, `<idPrefix>-<n>` saying `<bodyPrefix> <n>`: pending from now on. */
  protected nextMessage(idPrefix: string, bodyPrefix: string): Written {
    this.seq += 1;
    const m = { clientId: `${idPrefix}-${this.seq}`, body: `${bodyPrefix} ${this.seq}` };
    this.attempted.push(m);
    return m;
  }
}

/** A room client as the web client behaves: pending messages by client_id, merge by id, resend, catch up. */
export class Sender extends RoomLedger {
  readonly resent = new Set<string>();
  socket: LoadSocket | null = null;
  /** False from a reconnect until its pending messages are resent: new ones wait, so order is kept. */
  ready = true;
  /** The newest id known when the current socket was opened: the catch-up starts after it. */
  private seenBeforeConnect = 0;
  /** A client whose connection died silently: what arrives is lost (its messages still reach the server). */
  deaf = false;
  /** Goes deaf after writing this many messages (0: never). */
  deafAfter = 0;

  constructor(
    person: Person,
    readonly index: number,
    chatId: string,
  ) {
    super(person, chatId);
  }

  /** Opens the room socket and waits until the server has put it in the room (subscribed before catch-up). */
  async connect(proc: Endpoint): Promise<void> {
    // What arrives live on the new socket may be newer than what was missed meanwhile: catch up from here.
    this.seenBeforeConnect = this.lastId;
    this.ready = this.pending().length === 0;
    this.deaf = false;
    this.deafAfter = 0;
    this.socket = await LoadSocket.joinRoom(proc, this.chatId, this.person.token, (f) => {
      if (!this.deaf) this.take(f);
    });
  }

  /** Writes the next message: pending at once, sent if the socket is open (else it waits for a resend). */
  write(): void {
    const m = this.nextMessage(`s${this.index}`, `sender ${this.index} message`);
    if (this.deafAfter && this.seq > this.deafAfter) this.deaf = true;
    if (this.ready) this.socket?.send({ type: 'chat_message', body: m.body, client_id: m.clientId });
  }

  /** After a reconnect: resend every pending message (in order, same client_ids), then fetch what was missed. */
  async resendAndCatchUp(proc: Endpoint): Promise<void> {
    for (const m of this.pending()) {
      this.resent.add(m.clientId);
      this.socket?.send({ type: 'chat_message', body: m.body, client_id: m.clientId });
    }
    this.ready = true;
    this.caughtUp(await historyAfter(proc, this.person.token, this.chatId, this.seenBeforeConnect));
  }
}

/** Each sender writes every `intervalMs` until it has written `upTo` messages. */
export function pump(senders: Sender[], upTo: number, intervalMs: number): Promise<void> {
  return Promise.all(
    senders.map(
      (s, i) =>
        new Promise<void>((resolve) => {
          setTimeout(() => {
            const timer = setInterval(() => {
              if (s.seq >= upTo) {
                clearInterval(timer);
                resolve();
                return;
              }
              s.write();
            }, intervalMs);
          }, i * 13);
        }),
    ),
  ).then(() => {});
}
