import http from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { chatMessage, parseChatFrame } from './message-shape';

// The practical limit: a `ws` broadcast server written as well as `ws` allows. Rooms by path
// (/ws/chatroom/<room>/), the user id as the token; each chat_message is serialised and encoded to one Buffer,
// and those same bytes are sent to every socket of the room, the sender's included, with every connection
// written to in a tick corked until the tick's code is done (one system call per socket per tick, as Parley's
// hub does). No storage, no auth, no back-pressure: what Parley does beyond this is its cost.
interface Member {
  ws: WebSocket;
  /** The upgraded request's TCP connection, corked while a tick's frames are written. */
  tcp: Duplex;
}

const rooms = new Map<string, Set<Member>>();
const server = http.createServer((_req, res) => res.writeHead(200).end('ok'));
const wss = new WebSocketServer({ noServer: true, clientTracking: false, maxPayload: 1024 * 1024 });
const TEXT_FRAME = { binary: false } as const;

const corked = new Set<Duplex>();
function uncorkAll() {
  for (const tcp of corked) tcp.uncork();
  corked.clear();
}
/** Holds the connection's writes until the code running now is done; the first cork of a tick schedules the flush. */
function cork(tcp: Duplex) {
  if (corked.has(tcp)) return;
  if (corked.size === 0) process.nextTick(uncorkAll);
  tcp.cork();
  corked.add(tcp);
}

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
      const out = Buffer.from(
        JSON.stringify({
          type: 'chat_message',
          message: chatMessage(user, id, frame.body.trim(), frame.client_id),
          client_id: frame.client_id,
        }),
      );
      for (const peer of set) {
        if (peer.ws.readyState !== peer.ws.OPEN) continue;
        cork(peer.tcp);
        peer.ws.send(out, TEXT_FRAME);
      }
    });
  });
});

server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
