import { io } from 'socket.io-client';
import WebSocket from 'ws';
import type { Member, ServerKind } from './ipc';

// One client connection of the load generator, the same to the caller whichever server it talks to.
// Parley and the bare `ws` peer speak Parley's frames over plain WebSocket; the Socket.IO peer speaks events.

export interface ClientEvents {
  /** The first frame from the server: the socket is authenticated and in its room. */
  ready(): void;
  /** A chat_message broadcast, identified by the client_id it echoes (benchClientId); `messageId` is the
   *  server's id for it. */
  chat(room: number, seq: number, sentAtMicros: number, messageId: number): void;
  error(): void;
  closed(reason: string): void;
}

export interface Client {
  send(body: string, clientId: string): void;
  /** Any other client frame, as JSON (Parley's acknowledgements). */
  sendFrame(frame: object): void;
  /** Drops the connection at once (end of a run). */
  close(): void;
  /** Closes politely, as a browser leaving the page does (close handshake). */
  end(): void;
}

const CHAT_PREFIX = Buffer.from('{"type":"chat_message"');
const MESSAGE_ID_PREFIX = Buffer.from('{"type":"chat_message","message":{"id":');
const ERROR_PREFIX = Buffer.from('{"type":"error"');
const CLIENT_ID_KEY = Buffer.from('"client_id":"');
const DOT = 0x2e;
const QUOTE = 0x22;

/**
 * The client_id of a generated message, "<sent at, µs, 12 digits>.<room>.<seq>": it begins with the time, as
 * the web app's (UUIDv7s) do, so a server's key of stored client_ids grows at its end as a real one's does.
 */
export const benchClientId = (room: number, seq: number, sentAtMicros: number) =>
  `${String(sentAtMicros).padStart(12, '0')}.${room}.${seq}`;

const startsWith = (buf: Buffer, prefix: Buffer) =>
  buf.length >= prefix.length && buf.compare(prefix, 0, prefix.length, 0, prefix.length) === 0;

/** The digits at `at` (the message id right after MESSAGE_ID_PREFIX), or 0. */
function intAt(buf: Buffer, at: number): number {
  let n = 0;
  for (let i = at; i < buf.length; i++) {
    const ch = buf[i] as number;
    if (ch < 0x30 || ch > 0x39) break;
    n = n * 10 + (ch - 0x30);
  }
  return n;
}

/** Reads a benchClientId from `buf` at `at` up to the closing quote, without decoding the frame. */
function parseIdBytes(
  buf: Buffer,
  at: number,
  messageId: number,
  out: (a: number, b: number, c: number, id: number) => void,
): boolean {
  const parts = [0, 0, 0];
  let part = 0;
  for (let i = at; i < buf.length; i++) {
    const ch = buf[i] as number;
    if (ch === QUOTE) {
      if (part !== 2) return false;
      out(parts[1] as number, parts[2] as number, parts[0] as number, messageId);
      return true;
    }
    if (ch === DOT) {
      if (++part > 2) return false;
    } else if (ch >= 0x30 && ch <= 0x39) parts[part] = (parts[part] as number) * 10 + (ch - 0x30);
    else return false;
  }
  return false;
}

function parseIdString(
  id: unknown,
  messageId: number,
  out: (a: number, b: number, c: number, id: number) => void,
): boolean {
  if (typeof id !== 'string') return false;
  const [sentAt, room, seq] = id.split('.');
  if (seq === undefined) return false;
  out(Number(room), Number(seq), Number(sentAt), messageId);
  return true;
}

function wsClient(url: string, localAddress: string | undefined, on: ClientEvents): Client {
  const ws = new WebSocket(url, { perMessageDeflate: false, skipUTF8Validation: true, localAddress });
  let ready = false;
  ws.on('message', (data: Buffer) => {
    if (!ready) {
      ready = true;
      on.ready();
    }
    if (startsWith(data, CHAT_PREFIX)) {
      const at = data.lastIndexOf(CLIENT_ID_KEY);
      const id = startsWith(data, MESSAGE_ID_PREFIX) ? intAt(data, MESSAGE_ID_PREFIX.length) : 0;
      if (at < 0 || !parseIdBytes(data, at + CLIENT_ID_KEY.length, id, on.chat)) on.error();
    } else if (startsWith(data, ERROR_PREFIX)) on.error();
  });
  ws.on('error', () => {});
  ws.on('close', (code) => on.closed(`close ${code}`));
  return {
    send(body, clientId) {
      if (ws.readyState === WebSocket.OPEN)
        ws.send(JSON.stringify({ type: 'chat_message', body, client_id: clientId }));
    },
    sendFrame(frame) {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(frame));
    },
    close() {
      ws.terminate();
    },
    end() {
      ws.close(1000);
    },
  };
}

function socketIoClient(
  base: string,
  query: Record<string, string>,
  localAddress: string | undefined,
  on: ClientEvents,
): Client {
  const socket = io(base, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    timeout: 60_000,
    query,
    // Passed through to the `ws` transport (engine.io-client picks localAddress); not in the typings.
    ...({ localAddress } as object),
  });
  let ready = false;
  const first = () => {
    if (!ready) {
      ready = true;
      on.ready();
    }
  };
  socket.on('hello', first);
  socket.on('chat_message', (frame: { client_id?: unknown; message?: { id?: unknown } }) => {
    first();
    const id = typeof frame.message?.id === 'number' ? frame.message.id : 0;
    if (!parseIdString(frame.client_id, id, on.chat)) on.error();
  });
  socket.on('connect_error', (err) => on.closed(`connect_error ${err.message}`));
  socket.on('disconnect', (reason) => on.closed(reason));
  return {
    send(body, clientId) {
      socket.emit('chat_message', { body, client_id: clientId });
    },
    sendFrame() {
      // The Socket.IO peer has no acknowledgements.
    },
    close() {
      socket.disconnect();
    },
    end() {
      socket.disconnect();
    },
  };
}

const wsBase = (target: string) => target.replace(/^http/, 'ws');

export function connectRoom(
  kind: ServerKind,
  member: Member,
  roomId: string,
  localAddress: string | undefined,
  on: ClientEvents,
): Client {
  if (kind === 'socketio')
    return socketIoClient(member.target, { room: roomId, token: member.token }, localAddress, on);
  const url = `${wsBase(member.target)}/ws/chatroom/${encodeURIComponent(roomId)}/?token=${encodeURIComponent(member.token)}`;
  return wsClient(url, localAddress, on);
}

export function connectNotifications(
  kind: ServerKind,
  member: Member,
  localAddress: string | undefined,
  on: ClientEvents,
): Client {
  if (kind === 'socketio')
    return socketIoClient(member.target, { notify: '1', token: member.token }, localAddress, on);
  const url = `${wsBase(member.target)}/ws/notifications/?token=${encodeURIComponent(member.token)}`;
  return wsClient(url, localAddress, on);
}

/** Opens `count` connections, at most `concurrency` at a time; resolves when each is ready or has failed. */
export async function openAll<T>(
  count: number,
  concurrency: number,
  open: (i: number, settle: (ok: boolean, why?: string) => void) => T,
): Promise<{ clients: T[]; failed: number; firstError: string | null }> {
  const clients: T[] = new Array(count);
  let next = 0;
  let failed = 0;
  let firstError: string | null = null;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      await new Promise<void>((resolve) => {
        let settled = false;
        clients[i] = open(i, (ok, why) => {
          if (settled) return;
          settled = true;
          if (!ok) {
            failed++;
            firstError ??= why ?? 'failed';
          }
          resolve();
        });
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return { clients, failed, firstError };
}
