import { MESSAGE_TEXT } from './essentials';

// The socket's texts, apart from the frame schemas in frames.ts: a screen that shows them (the room's banner)
// then loads no zod until a frame is parsed.

/** Error texts the server puts in `error` frames (and the HTTP answers of the same refusals). */
export const SOCKET_ERRORS = {
  invalidFormat: 'Invalid message format',
  tooLarge: 'Message too large',
  blank: MESSAGE_TEXT.blank,
  tooLong: MESSAGE_TEXT.tooLong,
  rateLimited: 'You are sending messages too fast. Please slow down.',
  failed: 'Failed to send message. Please try again.',
} as const;

/** Text the client shows for socket problems (SPEC §8). */
export const SOCKET_CLIENT_TEXT = {
  connectionError: 'Connection error',
  invalidFormat: 'Invalid message format',
  notConnected: 'Not connected to chat',
  authFailed: 'Authentication failed',
  notFound: 'Chat room not found',
  notificationError: 'Notification connection error',
  notificationInvalid: 'Invalid notification message format',
} as const;
