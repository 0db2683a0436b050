import {
  CHANNEL_TEXT,
  CLOSE_NOT_FOUND,
  type ClientFrame,
  clientFrameSchema,
  SOCKET_ERRORS,
  SOCKET_MAX_PAYLOAD_BYTES,
  TOKEN_TEXT,
} from '@parley/protocol';
import type { RawData, WebSocket } from 'ws';
import type { AppContext } from '../../context';
import {
  HttpError,
  isDatabaseUnreachable,
  isStorageFull,
  STORAGE_FULL,
  warnStorageFull,
} from '../../platform/errors';
import { MESSAGE_WINDOW_MS, messageLimitKey } from '../../platform/rate-limit-policy';
import type { Client } from './hub';
import { sendFrame, type Upgrade } from './socket-connection';

// The frames a room's socket sends: chat messages, typing, and read and delivery receipts. Each is checked
// against the protocol's schema and handed to the service that decides; refusals go back as error frames.

export type RoomFrameDeps = Pick<
  AppContext,
  'config' | 'metrics' | 'messageLimiter' | 'messages' | 'chats' | 'users' | 'realtime'
>;

/**
 * One frame from a room's socket, its log lines (and its message's fan-out) carrying its upgrade's request id.
 * What the services refuse while checking a frame (a chat gone, the rate limit, a bad message) is told to the
 * sender (refuse); the receipts and the typing relay itself are not refusals: their failures are left to the
 * caller, which logs them.
 */
export async function handleRoomFrame(
  deps: RoomFrameDeps,
  client: Client,
  data: RawData,
  upgrade: Upgrade,
): Promise<void> {
  const { ws, userId } = client;
  const chatId = client.chatId as string;
  const frame = parseFrame(ws, data);
  if (!frame) return;
  // Someone watching a public group from outside posts nothing; their typing and receipts count for nothing.
  // Nor do a read-only token's: it was given to receive.
  if (client.watcher || client.readOnly) {
    if (frame.type === 'chat_message') {
      const message = client.watcher ? CHANNEL_TEXT.joinToPost : TOKEN_TEXT.readOnly;
      sendFrame(ws, { type: 'error', message, client_id: frame.client_id });
    }
    return;
  }
  switch (frame.type) {
    case 'chat_message':
      try {
        await sendMessage(deps, client, frame, upgrade);
      } catch (err) {
        refuse(ws, frame, err, upgrade);
      }
      return;
    case 'typing': {
      let username: string;
      try {
        username = await typistName(deps, client);
      } catch (err) {
        refuse(ws, frame, err, upgrade);
        return;
      }
      // Not to the typist's own sockets, nor to people a block stands between with them.
      const typing = { type: 'typing', user_id: userId, username, is_typing: frame.is_typing } as const;
      return deps.realtime.toRoomAbout(chatId, typing, userId, userId);
    }
    case 'read_messages':
      return deps.messages.markRead(userId, chatId, frame.message_ids, frame.thread_root);
    case 'messages_delivered':
      return deps.messages.markDelivered(userId, chatId, frame.message_ids);
  }
}

/** The frame, or null once the sender has been told why it is refused (too large, not JSON, not a frame). */
function parseFrame(ws: WebSocket, data: RawData): ClientFrame | null {
  const raw = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
  if (raw.byteLength > SOCKET_MAX_PAYLOAD_BYTES) {
    sendFrame(ws, { type: 'error', message: SOCKET_ERRORS.tooLarge });
    return null;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    sendFrame(ws, { type: 'error', message: SOCKET_ERRORS.invalidFormat });
    return null;
  }
  const result = clientFrameSchema.safeParse(parsed);
  if (result.success) return result.data;
  // Name the refused message when it has a client_id, so the sender can mark that one as failed.
  const clientId = (parsed as { client_id?: unknown } | null)?.client_id;
  sendFrame(ws, {
    type: 'error',
    message: SOCKET_ERRORS.invalidFormat,
    client_id: typeof clientId === 'string' ? clientId.slice(0, 64) : undefined,
  });
  return null;
}

/** A chat message, within the sender's rate limit. */
async function sendMessage(
  deps: RoomFrameDeps,
  client: Client,
  frame: Extract<ClientFrame, { type: 'chat_message' }>,
  upgrade: Upgrade,
): Promise<void> {
  const { config, metrics, messageLimiter, messages } = deps;
  const limit = await messageLimiter.hit(
    messageLimitKey(client.userId),
    config.messageRateLimit,
    MESSAGE_WINDOW_MS,
  );
  if (!limit.allowed) {
    metrics?.rateLimitRefused('socket');
    sendFrame(client.ws, {
      type: 'error',
      message: SOCKET_ERRORS.rateLimited,
      code: 'rate_limited',
      client_id: frame.client_id,
    });
    return;
  }
  // Published to the room by the messages module, a resend's included (every client merges by id).
  const { type: _type, ...input } = frame;
  await messages.send(client.userId, client.chatId as string, input, upgrade.requestId);
}

/** The typist's username, once they are found to be a member still. */
async function typistName(deps: RoomFrameDeps, client: Client): Promise<string> {
  await deps.chats.requireMember(client.userId, client.chatId as string);
  return deps.users.usernameOf(client.userId);
}

/** A frame the services refused: a chat gone closes the socket, a client error is told, anything else logged. */
function refuse(ws: WebSocket, frame: ClientFrame, err: unknown, upgrade: Upgrade): void {
  const clientId = frame.type === 'chat_message' ? frame.client_id : undefined;
  if (err instanceof HttpError && err.status === 404) ws.close(CLOSE_NOT_FOUND, 'Chat room not found');
  else if (err instanceof HttpError && err.status < 500)
    sendFrame(ws, { type: 'error', message: err.message, client_id: clientId });
  else if (isStorageFull(err)) {
    // A full disk refuses every send until space returns.
    warnStorageFull(upgrade.log());
    sendFrame(ws, { type: 'error', message: STORAGE_FULL, client_id: clientId });
  } else {
    // An outage of the database is logged once by the database layer, not once per frame it refuses.
    if (!isDatabaseUnreachable(err)) upgrade.log().error({ err }, 'socket frame failed');
    sendFrame(ws, { type: 'error', message: SOCKET_ERRORS.failed, client_id: clientId });
  }
}
