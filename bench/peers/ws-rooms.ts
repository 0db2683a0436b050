import http from 'node:http';
import type { Duplex } from 'node:stream';
import { type ServerOptions, type WebSocket, WebSocketServer } from 'ws';
import { parseChatFrame } from './message-shape';

// What the ws peers share: rooms by path (/ws/chatroom/<room>/), the user id as the token, a notification socket
// that answers with a zero count, and each usable chat_message handed to the peer with its room's members. How a
// peer stores, encodes and writes a message is its own (bare-ws.ts, naive-ws.ts, ws-sqlite.ts).
export interface Member {
  ws: WebSocket;
  /** The upgraded request's TCP connection, corked while a tick's frames are written. */
  tcp: Duplex;
}

export interface ChatFrame {
  room: string;
  /** The room's members now, the sender's socket included. */
  members: Set<Member>;
  sender: number;
  body: string;
  clientId: string | null;
}

/** Listens on $PORT and hands every chat_message to `onChat`; SIGTERM runs `onStop` and exits. */
export function serveRooms(
  onChat: (frame: ChatFrame) => void,
  options: { ws?: ServerOptions; onStop?: () => void } = {},
): void {
  const rooms = new Map<string, Set<Member>>();
  const server = http.createServer((_req, res) => res.writeHead(200).end('ok'));
  const wss = new WebSocketServer({ maxPayload: 1024 * 1024, ...options.ws, noServer: true });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://local');
    const user = Number(url.searchParams.get('token'));
    const room = /^\/ws\/chatroom\/([^/]+)\/$/.exec(url.pathname)?.[1];
    const notify = url.pathname === '/ws/notifications/';
    if (!user || (!room && !notify)) return socket.destroy();
    wss.handleUpgrade(req, socket, head, (ws) => {
      if (notify) return ws.send(JSON.stringify({ type: 'notification_count', count: 0 }));
      const id = room as string;
      let members = rooms.get(id);
      if (!members) {
        members = new Set();
        rooms.set(id, members);
      }
      const set = members;
      const me: Member = { ws, tcp: socket };
      set.add(me);
      ws.send(JSON.stringify({ type: 'in_chat_count', count: set.size }));
      ws.on('close', () => {
        set.delete(me);
        if (set.size === 0) rooms.delete(id);
      });
      ws.on('message', (data: Buffer) => {
        const frame = parseChatFrame(data.toString());
        if (!frame) return;
        onChat({ room: id, members: set, sender: user, body: frame.body.trim(), clientId: frame.client_id });
      });
    });
  });
  server.listen(Number(process.env.PORT), '127.0.0.1');
  process.on('SIGTERM', () => {
    options.onStop?.();
    process.exit(0);
  });
}

const TEXT_FRAME = { binary: false } as const;
const corked = new Set<Duplex>();
function uncorkAll() {
  for (const tcp of corked) tcp.uncork();
  corked.clear();
}

/**
 * The same bytes to every open member, each connection corked until this turn of the event loop is over (the
 * first cork of a turn schedules the flush with setImmediate): one system call per socket per turn, however many
 * frames the turn's reads brought. Flushing after each read's callback instead (process.nextTick, as Parley's hub
 * does after each batch its writer announces) held this peer to about half the deliveries in rooms of 100 and
 * 1,000; Parley's hub flushed per turn measured no better, its writer already batching a turn's messages.
 */
export function sendToAll(members: Set<Member>, out: Buffer): void {
  for (const peer of members) {
    if (peer.ws.readyState !== peer.ws.OPEN) continue;
    if (!corked.has(peer.tcp)) {
      if (corked.size === 0) setImmediate(uncorkAll);
      peer.tcp.cork();
      corked.add(peer.tcp);
    }
    peer.ws.send(out, TEXT_FRAME);
  }
}
