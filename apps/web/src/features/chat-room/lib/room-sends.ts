import type { ClientFrame } from '@parley/protocol';
import type { SendResult } from '../../../lib/chat-socket';

// What goes out on the room socket for a message, and what the screen says when it could not go out.

export const NOT_CONNECTED_TEXT = 'Not connected to chat. Trying to reconnect...';
export const SEND_FAILED_TEXT = 'Failed to send message. Please check your connection.';

/**
 * A pending message's frame: its text, when it carries files their ids (the body may then be empty), and when
 * it answers another message that message's id.
 */
export function messageFrame(p: {
  body: string;
  client_id: string;
  file_ids?: number[];
  reply_to?: { id: number };
}): ClientFrame {
  const frame: Extract<ClientFrame, { type: 'chat_message' }> = {
    type: 'chat_message',
    body: p.body,
    client_id: p.client_id,
  };
  if (p.file_ids?.length) frame.file_ids = p.file_ids;
  if (p.reply_to) frame.reply_to = p.reply_to.id;
  return frame;
}

/**
 * A send that did not go out: the banner's text, and whether to try to connect at once (there was no open
 * socket, rather than one that failed to write). Null when it went; undefined is a room with no socket.
 */
export function sendFailure(result: SendResult | undefined): { text: string; reconnect: boolean } | null {
  if (result === 'sent') return null;
  if (result === 'failed') return { text: SEND_FAILED_TEXT, reconnect: false };
  return { text: NOT_CONNECTED_TEXT, reconnect: true };
}
