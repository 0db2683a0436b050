import type { FastifyBaseLogger } from 'fastify';
import { vi } from 'vitest';
import type { ChatsService } from '../modules/chats/chats.service';
import type { MessagesService } from '../modules/messages/messages.service';
import { RealtimeService } from '../modules/realtime/realtime.service';
import { MemoryBus } from '../platform/bus';
import { DomainEvents } from '../platform/events';
import { Lifecycle } from '../platform/lifecycle';
import { MemoryPresence } from '../platform/presence';
import { MemoryRoomPresence } from '../platform/room-presence';
import { noBlocks } from './no-blocks';

// A RealtimeService on the in-process bus and room presence, with fakes in place of the database (the unread
// totals), of blocks (none) and of the logger. Every frame published is recorded with its topic and the (fake)
// time it went out, counted from when the harness was built.

export interface Published {
  topic: string;
  at: number;
  frame: { type: string; [key: string]: unknown };
}

type Totals = (userIds: number[]) => Promise<Map<number, number>>;
type GroupDetail = ChatsService['groupDetail'];

export function realtimeHarness(o: { totalsUnread?: Totals; groupDetail?: GroupDetail } = {}) {
  const bus = new MemoryBus();
  const rooms = new MemoryRoomPresence();
  const usersIn = vi.spyOn(rooms, 'usersIn');
  const absentAmong = vi.spyOn(rooms, 'absentAmong');
  const totalsUnread = vi.fn<Totals>(o.totalsUnread ?? (async (ids) => new Map(ids.map((id) => [id, 0]))));
  const error = vi.fn();
  // A failure's line goes through a child log with the job's id (platform/job-log.ts): the same fake here.
  const log = { error, child: vi.fn((): unknown => log) };
  const events = new DomainEvents();
  const lifecycle = new Lifecycle();
  const service = new RealtimeService({
    bus,
    events,
    // Only chat.updated reads a chat, from `groupDetail` where a test gives one.
    chats: { groupDetail: o.groupDetail } as ChatsService,
    messages: { totalsUnread } as unknown as MessagesService,
    rooms,
    // Presence frames are tested with the real app (test/realtime/presence-frames.test.ts).
    presence: new MemoryPresence(),
    users: { presenceForOthers: async () => null },
    log: log as unknown as FastifyBaseLogger,
    lifecycle,
    blocks: noBlocks,
  });
  const start = Date.now();
  const published: Published[] = [];
  const listen = (...topics: string[]) =>
    Promise.all(
      topics.map((topic) =>
        bus.subscribe(topic, (m) =>
          published.push({
            topic,
            at: Date.now() - start,
            // A close control message carries no frame: it is recorded as one of type 'close'.
            frame: m.close ? { type: 'close', ...m.close } : JSON.parse(m.data),
          }),
        ),
      ),
    );
  return {
    bus,
    rooms,
    usersIn,
    absentAmong,
    totalsUnread,
    error,
    child: log.child,
    events,
    lifecycle,
    service,
    published,
    listen,
  };
}
