import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import {
  CLOSE_AUTH_FAILED,
  CLOSE_NOT_FOUND,
  CLOSE_SERVICE_RESTART,
  CLOSE_TOO_MANY,
  clientFrameSchema,
  type NotificationClientFrame,
  type NotificationFrame,
  notificationClientFrameSchema,
  type ServerFrame,
  SOCKET_ERRORS,
  SOCKET_MAX_PAYLOAD_BYTES,
} from '@parley/protocol';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import type { AppContext } from '../../context';
import { requireAuth, sessionOf } from '../../platform/auth';
import { HttpError, TooManyRequestsError } from '../../platform/errors';
import type { Session } from '../accounts/session.service';
import { type Client, topics } from './hub';

const MESSAGE_WINDOW_MS = 10_000;

const send = (ws: WebSocket, frame: ServerFrame | NotificationFrame) => {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
};

/** Browsers must come from PUBLIC_URL or the page's own origin; clients without an Origin header are not browsers. */
function originAllowed(ctx: AppContext, req: FastifyRequest): boolean {
  const origin = req.headers.origin;
  if (!origin) return true;
  if (ctx.config.publicUrl && origin === ctx.config.publicUrl) return true;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

/**
 * Authenticates a socket before anything else: frames that arrive meanwhile wait in order in `queue` (a room's;
 * a notification socket's early frames are dropped). Returns the session, or closes with 4001 and returns null.
 */
async function openSocket(ctx: AppContext, ws: WebSocket, req: FastifyRequest, queue?: RawData[]) {
  if (ctx.lifecycle.stopping) {
    ws.close(CLOSE_SERVICE_RESTART, 'Service restart');
    return null;
  }
  if (queue) ws.on('message', (data) => queue.push(data));
  const token = (req.query as { token?: string }).token;
  const session = originAllowed(ctx, req) ? await ctx.tickets.redeem(token).catch(() => null) : null;
  if (!session) ws.close(CLOSE_AUTH_FAILED, 'Authentication failed');
  return session;
}

/**
 * What an open socket keeps of its upgrade request besides its Client (which has the connection): the request id
 * and a way to log with that id. The request itself (its headers, Fastify's request and reply, the upgrade's
 * ServerResponse) is let go of, so an idle socket costs little more than ws's own objects (issue 15: 100,000 on
 * one process).
 */
interface Upgrade {
  requestId: string;
  /** A logger carrying the request id, made when something is logged (rarely), not kept per socket. */
  log(): FastifyBaseLogger;
}

/** The socket's Client, made once it is authenticated, with its upgrade request let go of (see Upgrade). */
function letGoOfRequest(
  ctx: AppContext,
  ws: WebSocket,
  req: FastifyRequest,
  session: Session,
  chatId: string | null,
  onError: (this: WebSocket, err: Error) => void,
): { upgrade: Upgrade; client: Client } {
  const tcp = req.raw.socket;
  // @fastify/websocket's error listener closes over the request and its reply for the socket's whole life.
  ws.removeAllListeners('error');
  ws.on('error', onError);
  // The upgrade's ServerResponse stays assigned to the connection (and holds the request) until detached.
  (tcp as { _httpMessage?: ServerResponse | null })._httpMessage?.detachSocket(tcp as Socket);
  const requestId = req.id;
  return {
    upgrade: { requestId, log: () => ctx.log.child({ reqId: requestId }) },
    client: { ws, tcp, userId: session.userId, sessionId: session.sessionId, chatId },
  };
}

/**
 * Presence and control shared by both channels. The user's topic also puts the socket in the process's ping
 * and session sweep (SocketSweep), which drops it when it stops answering or its session ends.
 * Returns false when the socket was closed for being one too many of its user's.
 */
async function watch(
  ctx: AppContext,
  client: Client,
  upgrade: Upgrade,
  onClose?: () => Promise<void>,
): Promise<boolean> {
  const { ws } = client;
  const connected = ctx.presence
    .connect(client.userId)
    .catch((err) => upgrade.log().error({ err }, 'presence connect failed'));
  const topic = topics.user(client.userId);
  ctx.hub.attach(topic, client);
  ws.on('close', () => {
    ctx.hub.detach(topic, client);
    // Tracked: a stopping process closes its database and Redis only after this has run.
    void ctx.lifecycle.track(
      (async () => {
        await connected;
        await onClose?.();
        if (await ctx.presence.disconnect(client.userId)) await ctx.users.markSeen(client.userId);
      })().catch((err) => upgrade.log().error({ err }, 'socket close handling failed')),
    );
  });
  // Counted online before anything else is announced about this connection, and nothing published to the user
  // after this returns is missed.
  await Promise.all([connected, ctx.hub.ready(topic)]);
  // Counted first, then checked, so sockets opening at once on several processes cannot all slip under the limit.
  if ((await ctx.presence.connections(client.userId)) > ctx.config.socketsPerUser) {
    ws.close(CLOSE_TOO_MANY, 'Too many connections');
    return false;
  }
  return true;
}

export async function socketRoutes(app: FastifyInstance, ctx: AppContext) {
  // A socket error is the client's (a malformed frame, a connection reset): noted, and the socket dropped.
  const onSocketError = function (this: WebSocket, err: Error) {
    ctx.log.warn({ err }, 'socket error');
    this.terminate();
  };

  app.post('/api/ws/ticket/', { preHandler: requireAuth(ctx.sessions) }, async (req) => {
    const session = sessionOf(req);
    const limit = await ctx.limiter.hit(
      `ws-ticket:${session.userId}`,
      ctx.config.socketTicketsPerMinute,
      60_000,
    );
    if (!limit.allowed)
      throw new TooManyRequestsError(
        limit.retryAfterSeconds,
        'Too many connections. Please try again later.',
      );
    return { ticket: await ctx.tickets.issue(session) };
  });

  // A process that is stopping refuses a new socket before the handshake (503): behind nginx the next process
  // takes it (proxy_next_upstream), and a client alone with this process tries again after its usual delay,
  // instead of being closed with 1012 right after opening and trying again at once, attempt after attempt.
  const refuseWhileStopping = async (_req: FastifyRequest, reply: FastifyReply) => {
    if (ctx.lifecycle.stopping) return reply.code(503).send({ detail: 'Service restart' });
  };

  // An opening socket is tracked like its frames: a stop closes the database only after it has finished.
  const tracked =
    <R>(open: (ws: WebSocket, req: R) => Promise<void>) =>
    (ws: WebSocket, req: R) =>
      ctx.lifecycle.track(open(ws, req));

  app.get<{ Params: { chatId: string } }>(
    '/ws/chatroom/:chatId/',
    { websocket: true, onRequest: refuseWhileStopping },
    tracked(async (ws, req: FastifyRequest<{ Params: { chatId: string } }>) => {
      const queue: RawData[] = [];
      const session = await openSocket(ctx, ws, req, queue);
      if (!session) return;
      const chatId = req.params.chatId;
      try {
        await ctx.chats.requireMember(session.userId, chatId);
      } catch {
        ws.close(CLOSE_NOT_FOUND, 'Chat room not found');
        return;
      }
      if (ws.readyState !== ws.OPEN) return;
      const { upgrade, client } = letGoOfRequest(ctx, ws, req, session, chatId, onSocketError);
      const room = topics.room(chatId);
      ctx.hub.attach(room, client);
      await ctx.hub.ready(room);
      if (ws.readyState !== ws.OPEN) return ctx.hub.detach(room, client);
      let joined = false;
      // The socket's log lines carry the request id of its upgrade request, its frames' included.
      const watched = await watch(ctx, client, upgrade, async () => {
        ctx.hub.detach(room, client);
        if (!joined) return;
        await ctx.rooms.leave(chatId, session.userId);
        ctx.realtime.roomOccupancyChanged(chatId);
      });
      if (!watched) return;
      joined = true;
      await ctx.rooms.join(chatId, session.userId);
      ctx.realtime.roomOccupancyChanged(chatId);

      // Frames are handled one at a time, in the order they arrived.
      let chain = Promise.resolve();
      const handle = (data: RawData) => {
        chain = ctx.lifecycle.track(
          chain
            .then(() => onFrame(ctx, client, session, data, upgrade))
            .catch((err) => upgrade.log().error({ err }, 'frame failed')),
        );
      };
      ws.removeAllListeners('message');
      ws.on('message', handle);
      for (const data of queue.splice(0)) handle(data);
    }),
  );

  app.get(
    '/ws/notifications/',
    { websocket: true, onRequest: refuseWhileStopping },
    tracked(async (ws, req: FastifyRequest) => {
      const session = await openSocket(ctx, ws, req);
      if (!session || ws.readyState !== ws.OPEN) return;
      const { upgrade, client } = letGoOfRequest(ctx, ws, req, session, null, onSocketError);
      if (!(await watch(ctx, client, upgrade)) || ws.readyState !== ws.OPEN) return;
      // A client told of a new message acknowledges it, so the sender sees it delivered before it is opened.
      ws.on('message', (data) => {
        let frame: NotificationClientFrame;
        try {
          frame = notificationClientFrameSchema.parse(JSON.parse(String(data)));
        } catch {
          return send(ws, { type: 'error', message: SOCKET_ERRORS.invalidFormat });
        }
        void ctx.lifecycle.track(
          ctx.messages.markDelivered(session.userId, frame.chatroom_id, frame.message_ids).catch(() => {}),
        );
      });
      send(ws, { type: 'notification_count', count: await ctx.messages.totalUnread(session.userId) });
    }),
  );
}

async function onFrame(
  ctx: AppContext,
  client: Client,
  session: Session,
  data: RawData,
  /** A frame's log lines, and the fan-out of the message it sends, carry its upgrade request's id. */
  upgrade: Upgrade,
): Promise<void> {
  const { ws } = client;
  const chatId = client.chatId as string;
  const raw = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
  if (raw.byteLength > SOCKET_MAX_PAYLOAD_BYTES)
    return send(ws, { type: 'error', message: SOCKET_ERRORS.tooLarge });
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    return send(ws, { type: 'error', message: SOCKET_ERRORS.invalidFormat });
  }
  const result = clientFrameSchema.safeParse(parsed);
  if (!result.success) {
    // Name the refused message when it has a client_id, so the sender can mark that one as failed.
    const clientId = (parsed as { client_id?: unknown } | null)?.client_id;
    return send(ws, {
      type: 'error',
      message: SOCKET_ERRORS.invalidFormat,
      client_id: typeof clientId === 'string' ? clientId.slice(0, 64) : undefined,
    });
  }
  const frame = result.data;
  try {
    switch (frame.type) {
      case 'chat_message': {
        const limit = await ctx.messageLimiter.hit(
          `ws-msg:${session.userId}`,
          ctx.config.messageRateLimit,
          MESSAGE_WINDOW_MS,
        );
        if (!limit.allowed) {
          ctx.metrics?.rateLimitRefused('socket');
          return send(ws, {
            type: 'error',
            message: SOCKET_ERRORS.rateLimited,
            code: 'rate_limited',
            client_id: frame.client_id,
          });
        }
        // Published to the room by the messages module, a resend's included (every client merges by id).
        await ctx.messages.send(
          session.userId,
          chatId,
          {
            body: frame.body,
            client_id: frame.client_id,
            file_ids: frame.file_ids,
            reply_to: frame.reply_to,
          },
          upgrade.requestId,
        );
        return;
      }
      case 'typing': {
        await ctx.chats.requireMember(session.userId, chatId);
        const username = await ctx.users.usernameOf(session.userId);
        // Not to people a block stands between with the typist (issue 13).
        return ctx.realtime.toRoomAbout(
          chatId,
          { type: 'typing', user_id: session.userId, username, is_typing: frame.is_typing },
          session.userId,
          session.userId,
        );
      }
      case 'read_messages':
        return ctx.messages.markRead(session.userId, chatId, frame.message_ids);
      case 'messages_delivered':
        return ctx.messages.markDelivered(session.userId, chatId, frame.message_ids);
    }
  } catch (err) {
    if (err instanceof HttpError && err.status === 404)
      return ws.close(CLOSE_NOT_FOUND, 'Chat room not found');
    if (err instanceof HttpError && err.status < 500) {
      const clientId = frame.type === 'chat_message' ? frame.client_id : undefined;
      return send(ws, { type: 'error', message: err.message, client_id: clientId });
    }
    upgrade.log().error({ err }, 'socket frame failed');
    send(ws, {
      type: 'error',
      message: SOCKET_ERRORS.failed,
      client_id: frame.type === 'chat_message' ? frame.client_id : undefined,
    });
  }
}
