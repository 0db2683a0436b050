import { CLOSE_NOT_FOUND } from '@parley/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import type { AppContext } from '../../context';
import { NotFoundError } from '../../platform/errors';
import { type Client, topics } from './hub';
import { handleRoomFrame, type RoomFrameDeps } from './room-frames';
import { authenticate, type SocketAuthDeps } from './socket-auth';
import {
  closeWhileUnreachable,
  letGoOfRequest,
  type SocketRouting,
  type Upgrade,
  type WatchDeps,
  watch,
} from './socket-connection';

// A chat room's socket (/ws/chatroom/{chat_id}/): a member's, counted in the room while it is open, or a
// watcher's (someone previewing a public group they have not joined: they hear its messages, not who is there,
// typing or reading, and are never counted). Its frames are handled one at a time, in the order they arrived
// (room-frames.ts).

export type RoomSocketDeps = SocketAuthDeps &
  WatchDeps &
  RoomFrameDeps &
  Pick<AppContext, 'log' | 'chats' | 'hub' | 'rooms' | 'realtime'>;

type RoomRequest = FastifyRequest<{ Params: { chatId: string } }>;

export function roomSocketRoute(app: FastifyInstance, deps: RoomSocketDeps, routing: SocketRouting) {
  routing.route<{ chatId: string }>(app, '/ws/chatroom/:chatId/', (ws, req) =>
    openRoomSocket(deps, routing, ws, req),
  );
}

async function openRoomSocket(deps: RoomSocketDeps, routing: SocketRouting, ws: WebSocket, req: RoomRequest) {
  // Frames that arrive while the socket waits at the gate and is checked wait here, in order.
  const queue = queueFrames(ws);
  // Opened at the pace the gate lets through (a reconnecting crowd).
  await routing.admit(ws, () => openAdmitted(deps, routing, ws, req, queue));
}

/** The frames that arrive from now on; a function of its own, so its listener does not hold the request. */
function queueFrames(ws: WebSocket): RawData[] {
  const queue: RawData[] = [];
  ws.on('message', (data) => queue.push(data));
  return queue;
}

/** A function of its own, so the socket's listeners do not share a closure scope holding the request. */
async function openAdmitted(
  deps: RoomSocketDeps,
  routing: SocketRouting,
  ws: WebSocket,
  req: RoomRequest,
  queue: RawData[],
) {
  const session = await authenticate(deps, ws, req);
  if (!session) return;
  const chatId = req.params.chatId;
  let watcher: boolean;
  try {
    watcher = (await deps.chats.requireReader(session.userId, chatId)).member === null;
  } catch (err) {
    if (err instanceof NotFoundError) ws.close(CLOSE_NOT_FOUND, 'Chat room not found');
    else closeWhileUnreachable(ws, err);
    return;
  }
  if (ws.readyState !== ws.OPEN) return;
  const { upgrade, client } = letGoOfRequest(deps.log, ws, req, session, chatId, routing.onError);
  if (watcher) client.watcher = true;
  if (!(await listenToRoom(deps, client))) return;
  if (!(await join(deps, client, upgrade))) return;
  handleInOrder(deps, client, upgrade, queue);
}

/** The socket hears its room's frames from here on; false (and nothing heard) when it closed meanwhile. */
async function listenToRoom(deps: RoomSocketDeps, client: Client): Promise<boolean> {
  const room = topics.room(client.chatId as string);
  deps.hub.attach(room, client);
  await deps.hub.ready(room);
  if (client.ws.readyState === client.ws.OPEN) return true;
  deps.hub.detach(room, client);
  return false;
}

/**
 * Counts a member in the room once the socket is watched, and out of it when the socket closes; each change
 * is announced (room occupancy). A watcher is never counted. False when the socket was closed for being one
 * too many.
 */
async function join(deps: RoomSocketDeps, client: Client, upgrade: Upgrade): Promise<boolean> {
  const chatId = client.chatId as string;
  const room = topics.room(chatId);
  let joined = false;
  const watched = await watch(deps, client, upgrade, async () => {
    deps.hub.detach(room, client);
    if (!joined || client.watcher) return;
    await deps.rooms.leave(chatId, client.userId);
    deps.realtime.roomOccupancyChanged(chatId);
  });
  if (!watched) return false;
  joined = true;
  if (client.watcher) return true;
  await deps.rooms.join(chatId, client.userId);
  deps.realtime.roomOccupancyChanged(chatId);
  return true;
}

/** Frames are handled one at a time, in the order they arrived, those that waited in `queue` first. */
function handleInOrder(deps: RoomSocketDeps, client: Client, upgrade: Upgrade, queue: RawData[]): void {
  let chain = Promise.resolve();
  const handle = (data: RawData) => {
    chain = deps.lifecycle.track(
      chain
        .then(() => handleRoomFrame(deps, client, data, upgrade))
        .catch((err) => upgrade.log().error({ err }, 'frame failed')),
    );
  };
  client.ws.removeAllListeners('message');
  client.ws.on('message', handle);
  for (const data of queue.splice(0)) handle(data);
}
