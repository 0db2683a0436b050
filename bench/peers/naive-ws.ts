import http from 'node:http';
import { type WebSocket, WebSocketServer } from 'ws';
import { chatMessage, parseChatFrame } from './message-shape';

// For reference, the way a `ws` broadcast server is usually written: rooms by path (/ws/chatroom/<room>/), the
// user id as the token, each chat_message serialised to a string once, then `send(string)` per socket, so each
// recipient's copy is encoded to UTF-8 again and written with a system call of its own. No storage, no auth.
// bare-ws.ts is the same server written as well as `ws` allows; the budget is held against that one.
const rooms = new Map<string, Set<WebSocket>>();
const server = http.createServer((_req, res) => res.writeHead(200).end('ok'));
const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });

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
    set.add(ws);
    ws.send(JSON.stringify({ type: 'in_chat_count', count: set.size }));
    ws.on('close', () => {
      set.delete(ws);
      if (set.size === 0) rooms.delete(id);
    });
    ws.on('message', (data) => {
      const frame = parseChatFrame(data.toString());
      if (!frame) return;
      const out = JSON.stringify({
        type: 'chat_message',
        message: chatMessage(user, id, frame.body.trim(), frame.client_id),
        client_id: frame.client_id,
      });
      for (const peer of set) if (peer.readyState === peer.OPEN) peer.send(out);
    });
  });
});

server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
