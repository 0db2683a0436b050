import { chatMessage } from './message-shape';
import { sendToAll, serveRooms } from './ws-rooms';

// The practical limit: a `ws` broadcast server written as well as `ws` allows. Each chat_message is serialised
// and encoded to one Buffer, and those same bytes are sent to every socket of the room, the sender's included,
// with every connection written to in a turn of the event loop corked until the turn is over (one system call per
// socket per turn, however many frames the turn's reads brought). No storage, no auth, no back-pressure: what
// Parley does beyond this is its cost.
serveRooms(
  ({ room, members, sender, body, clientId }) => {
    const message = chatMessage(sender, room, body, clientId);
    sendToAll(members, Buffer.from(JSON.stringify({ type: 'chat_message', message, client_id: clientId })));
  },
  { ws: { clientTracking: false } },
);
