import { chatMessage } from './message-shape';
import { serveRooms } from './ws-rooms';

// For reference, the way a `ws` broadcast server is usually written: each chat_message serialised to a string
// once, then `send(string)` per socket, so each recipient's copy is encoded to UTF-8 again and written with a
// system call of its own. No storage, no auth. bare-ws.ts is the same server written as well as `ws` allows; the
// budget is held against that one.
serveRooms(({ room, members, sender, body, clientId }) => {
  const out = JSON.stringify({
    type: 'chat_message',
    message: chatMessage(sender, room, body, clientId),
    client_id: clientId,
  });
  for (const { ws } of members) if (ws.readyState === ws.OPEN) ws.send(out);
});
