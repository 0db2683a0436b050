import http from 'node:http';
import { Server } from 'socket.io';
import { chatMessage } from './message-shape';

// The usual Node chat back end: Socket.IO, WebSocket transport only, the room from the handshake query,
// each chat_message emitted to the room (Socket.IO encodes once per broadcast), the sender included.
const server = http.createServer((_req, res) => res.writeHead(200).end('ok'));
const io = new Server(server, {
  transports: ['websocket'],
  serveClient: false,
  maxHttpBufferSize: 1024 * 1024,
});

io.on('connection', (socket) => {
  const { room, token, notify } = socket.handshake.query as Record<string, string | undefined>;
  const user = Number(token);
  if (notify) {
    socket.emit('hello', { type: 'notification_count', count: 0 });
    return;
  }
  if (!room || !user) return socket.disconnect(true);
  void socket.join(room);
  socket.emit('hello', { type: 'in_chat_count', count: io.sockets.adapter.rooms.get(room)?.size ?? 1 });
  socket.on('chat_message', (frame: { body?: unknown; client_id?: unknown }) => {
    if (typeof frame?.body !== 'string') return;
    const clientId = typeof frame.client_id === 'string' ? frame.client_id : null;
    io.to(room).emit('chat_message', {
      message: chatMessage(user, room, frame.body.trim(), clientId),
      client_id: clientId,
    });
  });
});

server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
