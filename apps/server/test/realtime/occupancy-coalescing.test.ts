import { describe, expect, it } from 'vitest';
import { addMember, createGroup, people } from '../chats/chat-helpers';
import { type TestApp, useTestApp } from '../helpers/test-app';
import { connectWs, roomPath, ticketFor, type WsClient } from '../helpers/ws-client';

// Room occupancy over real sockets: the socket routes announce joins and leaves through RealtimeService, merged
// per room. The windowing itself is unit-tested without sockets (src/modules/realtime/realtime-occupancy.test.ts).

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

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
