import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatsService } from '../../src/modules/chats/chats.service';
import type { MessagesService } from '../../src/modules/messages/messages.service';
import { topics } from '../../src/modules/realtime/hub';
import { RealtimeService } from '../../src/modules/realtime/realtime.service';
import { type BusMessage, MemoryBus } from '../../src/platform/bus';
import { DomainEvents } from '../../src/platform/events';
import { MemoryRoomPresence } from '../../src/platform/room-presence';
import { addMember, createGroup, people } from '../chats/chat-helpers';
import { type TestApp, useTestApp } from '../helpers/test-app';
import { connectWs, type Frame, roomPath, ticketFor, type WsClient } from '../helpers/ws-client';

// Room occupancy (bench finding 3): joins and leaves are announced per room at most once per window, each
// announcement carrying the room as it is then. The first change after a quiet spell goes out on the next turn.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

describe('RealtimeService occupancy announcements', () => {
  const services: RealtimeService[] = [];
  afterEach(() => {
    for (const s of services.splice(0)) s.close();
  });

  async function setUp(windowMs: number) {
    const bus = new MemoryBus();
    const rooms = new MemoryRoomPresence();
    const log = { error: () => {} } as unknown as FastifyBaseLogger;
    const realtime = new RealtimeService({
      bus,
      events: new DomainEvents(),
      chats: {} as ChatsService,
      messages: {} as MessagesService,
      rooms,
      log,
      occupancyWindowMs: windowMs,
    });
    services.push(realtime);
    const frames: Frame[] = [];
    await bus.subscribe(topics.room('c1'), (m: BusMessage) => frames.push(JSON.parse(m.data)));
    const change = async (kind: 'join' | 'leave', userId: number) => {
      await rooms[kind]('c1', userId);
      realtime.roomOccupancyChanged('c1');
    };
    return { frames, change };
  }

  it('announces the first change on the next turn, then merges changes within the window into one', async () => {
    const { frames, change } = await setUp(400);
    await change('join', 1);
    expect(frames).toEqual([]);
    await nextTurn();
    expect(frames).toEqual([
      { type: 'in_chat_users_update', user_ids: [1] },
      { type: 'in_chat_count', count: 1 },
    ]);

    // Within the window: held back, then one announcement with the latest state.
    await change('join', 2);
    await change('join', 3);
    await change('join', 4);
    await change('leave', 1);
    await nextTurn();
    await sleep(20);
    expect(frames).toHaveLength(2);
    await sleep(600);
    expect(frames).toHaveLength(4);
    expect(sorted(frames[2]?.user_ids)).toEqual([2, 3, 4]);
    expect(frames[3]).toEqual({ type: 'in_chat_count', count: 3 });

    // After a quiet window the next change is prompt again.
    await sleep(500);
    await change('leave', 2);
    await nextTurn();
    await nextTurn();
    expect(frames).toHaveLength(6);
    expect(sorted(frames[4]?.user_ids)).toEqual([3, 4]);
    expect(frames[5]).toEqual({ type: 'in_chat_count', count: 2 });
  });

  it('announces even when the set of people is unchanged (a second socket of someone already there)', async () => {
    const { frames, change } = await setUp(50);
    await change('join', 1);
    await nextTurn();
    await sleep(100);
    await change('join', 1);
    await nextTurn();
    expect(frames.filter((f) => f.type === 'in_chat_count')).toEqual([
      { type: 'in_chat_count', count: 1 },
      { type: 'in_chat_count', count: 1 },
    ]);
  });

  it('sends nothing once closed', async () => {
    const { frames, change } = await setUp(50);
    services[0]?.close();
    await change('join', 1);
    await nextTurn();
    await sleep(80);
    expect(frames).toEqual([]);
  });
});

// With REDIS_URL the same runs on the Redis bus and room presence (sign-up limits there outlive one app).
const backends = [
  { name: 'in-process', env: {} },
  ...(process.env.REDIS_URL
    ? [{ name: 'Redis', env: { REDIS_URL: process.env.REDIS_URL, SIGNUPS_PER_IP_HOUR: '1000000' } }]
    : []),
];

describe.each(backends)('room occupancy over real sockets ($name)', ({ env }) => {
  const app = useTestApp({ env });

  it('many joins at once: each socket gets a few merged announcements, the last one right', async () => {
    const t: TestApp = app();
    const members = await people(t, 'Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'John');
    const [owner] = members;
    const chatId = await createGroup(t, owner.token, 'Crowd');
    for (const m of members.slice(1)) await addMember(t, chatId, m.user.id);
    const everyone = sorted(members.map((m) => m.user.id));

    // Eight sockets each, tickets fetched first so the joins land together.
    const SOCKETS_EACH = 8;
    const tickets = await Promise.all(
      members.flatMap((m) => Array.from({ length: SOCKETS_EACH }, () => ticketFor(t, m.token))),
    );
    const clients: WsClient[] = await Promise.all(
      tickets.map((ticket, i) =>
        connectWs(t, roomPath(chatId), ticket, { rawToken: true, label: `socket ${i}` }),
      ),
    );
    const n = clients.length;
    try {
      await Promise.all(
        clients.map((c) => c.next('in_chat_count', (f) => f.count === members.length, 10_000)),
      );
      // Let any announcement still due go out, then compare with the uncoalesced n(n+1)/2 frames of each kind.
      await sleep(700);
      let updates = 0;
      for (const c of clients) {
        const users = c.received('in_chat_users_update');
        const counts = c.received('in_chat_count');
        expect(users.length).toBe(counts.length);
        expect(users.length).toBeGreaterThan(0);
        expect(sorted(users.at(-1)?.user_ids)).toEqual(everyone);
        expect(counts.at(-1)?.count).toBe(members.length);
        updates += users.length;
      }
      // Uncoalesced, the k-th socket to join gets n - k + 1 of them.
      expect(updates).toBeLessThan((n * (n + 1)) / 2 / 4);

      // The owner's sockets leave together: the others hear it in a merged announcement or two.
      const leaving = clients.slice(0, SOCKETS_EACH);
      await Promise.all(leaving.map((c) => c.close()));
      const stay = clients.slice(SOCKETS_EACH);
      const before = stay.map((c) => c.received('in_chat_count').length);
      const rest = everyone.filter((id) => id !== owner.user.id);
      await Promise.all(stay.map((c) => c.next('in_chat_count', (f) => f.count === rest.length, 5_000)));
      await sleep(700);
      stay.forEach((c, i) => {
        const counts = c.received('in_chat_count');
        expect(counts.length - (before[i] ?? 0)).toBeLessThanOrEqual(3);
        expect(counts.at(-1)?.count).toBe(rest.length);
        expect(sorted(c.received('in_chat_users_update').at(-1)?.user_ids)).toEqual(rest);
      });
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  });
});
