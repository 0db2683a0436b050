import type { ClientFrame } from '@parley/protocol';
import { outboxFrame } from '../../../lib/offline/outbox-sends';
import type { SendResult } from '../../../lib/realtime/chat-socket';
import type { PendingMessage } from './room-messages';

// What goes out on the room socket for the room's messages, and what the screen says when it could not go out.
// A message's frame and what the outbox keeps of it are lib/offline/outbox-sends.ts's, shared with threads.

export const NOT_CONNECTED_TEXT = 'Not connected to chat. Trying to reconnect...';
export const SEND_FAILED_TEXT = 'Failed to send message. Please check your connection.';

/**
 * A send that did not go out: the banner's text, and whether to try to connect at once (there was no open
 * socket, rather than one that failed to write). Null when it went; undefined is a room with no socket.
 */
export function sendFailure(result: SendResult | undefined): { text: string; reconnect: boolean } | null {
  if (result === 'sent') return null;
  if (result === 'failed') return { text: SEND_FAILED_TEXT, reconnect: false };
  return { text: NOT_CONNECTED_TEXT, reconnect: true };
}

/**
 * The frames an open sends for what waits, in the order typed: every message whose files are up (or that has
 * none) and that the server has not refused, each with the client_id it was first given.
 */
export const flushFrames = (pending: readonly PendingMessage[]): ClientFrame[] =>
  pending.filter((p) => p.status === 'sending').map(outboxFrame);
