import { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { Client } from '../modules/realtime/hub';

// Test doubles for the Hub and SocketSweep: a socket and its connection with just the members they use, each
// call written to one shared log so a test can assert the order of corks, sends and uncorks across sockets.

const OPEN = 1;
const CLOSED = 3;

export class FakeWebSocket extends EventEmitter {
  readonly OPEN = OPEN;
  readyState = OPEN;
  bufferedAmount = 0;
  readonly sent: { data: unknown; options: unknown }[] = [];
  readonly closeCodes: number[] = [];
  terminated = false;
  pings = 0;

  constructor(
    private readonly name: string,
    private readonly log: string[],
  ) {
    super();
  }

  send(data: Buffer, options: unknown): void {
    this.sent.push({ data, options });
    this.log.push(`${this.name} send ${String(data)}`);
  }

  close(code: number): void {
    this.closeCodes.push(code);
    this.log.push(`${this.name} close ${code}`);
  }

  terminate(): void {
    this.terminated = true;
    this.readyState = CLOSED;
    this.log.push(`${this.name} terminate`);
  }

  ping(): void {
    this.pings++;
  }

  /** The text frames sent so far. */
  texts(): string[] {
    return this.sent.map((s) => String(s.data));
  }
}

export class FakeConnection {
  corks = 0;
  uncorks = 0;

  constructor(
    private readonly name: string,
    private readonly log: string[],
  ) {}

  cork(): void {
    this.corks++;
    this.log.push(`${this.name} cork`);
  }

  uncork(): void {
    this.uncorks++;
    this.log.push(`${this.name} uncork`);
  }
}

export interface FakeClient {
  client: Client;
  ws: FakeWebSocket;
  tcp: FakeConnection;
}

/** A Hub client over fakes; `withoutConnection` leaves `tcp` unknown, as for a socket the routes did not open. */
export function fakeClient(
  log: string[],
  name: string,
  o: { userId?: number; sessionId?: number; chatId?: string | null; withoutConnection?: boolean } = {},
): FakeClient {
  const ws = new FakeWebSocket(name, log);
  const tcp = new FakeConnection(name, log);
  const client: Client = {
    ws: ws as unknown as WebSocket,
    tcp: o.withoutConnection ? undefined : (tcp as unknown as Duplex),
    userId: o.userId ?? 1,
    sessionId: o.sessionId ?? 1,
    chatId: o.chatId === undefined ? 'c1' : o.chatId,
  };
  return { client, ws, tcp };
}
