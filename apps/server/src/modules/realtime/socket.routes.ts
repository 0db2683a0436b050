import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { notificationSocketRoute } from './notification-socket';
import { roomSocketRoute } from './room-socket';
import { ticketRoutes } from './socket-auth';
import { socketRouting } from './socket-connection';

// The socket routes, by channel: tickets (socket-auth.ts), a room's socket (room-socket.ts, its frames in
// room-frames.ts) and the notification socket (notification-socket.ts); each takes only what it needs of ctx.
export async function socketRoutes(app: FastifyInstance, ctx: AppContext) {
  const routing = socketRouting(ctx);
  ticketRoutes(app, ctx);
  roomSocketRoute(app, ctx, routing);
  notificationSocketRoute(app, ctx, routing);
}
