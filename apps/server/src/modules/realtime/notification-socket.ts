import { type NotificationClientFrame, notificationClientFrameSchema, SOCKET_ERRORS } from '@parley/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import type { AppContext } from '../../context';
import type { Client } from './hub';
import { authenticate, type SocketAuthDeps } from './socket-auth';
import { letGoOfRequest, type SocketRouting, sendFrame, type WatchDeps, watch } from './socket-connection';

// The notification socket (/ws/notifications/): one per open page, told of messages in chats the person is not
// looking at, of changes to their chat list and of their unread count.

export type NotificationSocketDeps = SocketAuthDeps & WatchDeps & Pick<AppContext, 'log' | 'messages'>;

export function notificationSocketRoute(
  app: FastifyInstance,
  deps: NotificationSocketDeps,
  routing: SocketRouting,
) {
  routing.route(app, '/ws/notifications/', (ws, req) => openNotificationSocket(deps, routing, ws, req));
}

async function openNotificationSocket(
  deps: NotificationSocketDeps,
  routing: SocketRouting,
  ws: WebSocket,
  req: FastifyRequest,
) {
  // Opened at the pace the gate lets through (a reconnecting crowd).
  await routing.admit(ws, () => openAdmitted(deps, routing, ws, req));
}

/** A function of its own, so the socket's listeners do not share a closure scope holding the request. */
async function openAdmitted(
  deps: NotificationSocketDeps,
  routing: SocketRouting,
  ws: WebSocket,
  req: FastifyRequest,
) {
  const session = await authenticate(deps, ws, req);
  if (!session || ws.readyState !== ws.OPEN) return;
  const { upgrade, client } = letGoOfRequest(deps.log, ws, req, session, null, routing.onError);
  if (!(await watch(deps, client, upgrade)) || ws.readyState !== ws.OPEN) return;
  ws.on('message', (data) => acknowledge(deps, client, data));
  sendFrame(ws, { type: 'notification_count', count: await deps.messages.totalUnread(session.userId) });
}

/** A client told of a new message acknowledges it, so the sender sees it delivered before it is opened. */
function acknowledge(deps: NotificationSocketDeps, client: Client, data: RawData): void {
  let frame: NotificationClientFrame;
  try {
    frame = notificationClientFrameSchema.parse(JSON.parse(String(data)));
  } catch {
    sendFrame(client.ws, { type: 'error', message: SOCKET_ERRORS.invalidFormat });
    return;
  }
  void deps.lifecycle.track(
    deps.messages.markDelivered(client.userId, frame.chatroom_id, frame.message_ids).catch(() => {}),
  );
}
