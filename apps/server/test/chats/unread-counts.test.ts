import { afterEach, describe, expect, it, vi } from 'vitest';
import { useTestApp } from '../helpers/test-app';
import { eventually, joinRoom, openNotifications, type WsClient } from '../helpers/ws-client';
import { addMember, createGroup, newClientId, people } from './chat-helpers';

// notification_count for members away from a room (bench/findings/2026-11-21-what-a-message-cost.md,
// finding 5): counted in rounds with one query for everyone due, the first round at once and later ones gathered
// per window, each round reading the counts as they are then. A burst in a busy group costs a few rounds, not a
// count per away member per message.
const app = useTestApp();
const open: WsClient[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(open.splice(0).map((c) => c.close()));
});

describe('unread counts of away members', () => {
  it('a burst in a group: every away member ends on the right count, in a few frames and a few queries', async () => {
    const t = app();
    const everyone = await people(t, 'Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances');
    const [ada, ...away] = everyone;
    const groupId = await createGroup(t, ada.token, 'Busy');
    for (const p of away) await addMember(t, groupId, p.user.id);
    const bells = await Promise.all(away.map(async (p) => (await openNotifications(t, p.token)).client));
    open.push(...bells);
    const room = await joinRoom(t, ada.token, groupId);
    open.push(room);
    const counting = vi.spyOn(t.ctx.messages, 'totalsUnread');

    // The most one person may send in 10 s (DESIGN §7).
    const BURST = 20;
    const ids = Array.from({ length: BURST }, () => newClientId('burst'));
    for (const [i, clientId] of ids.entries())
      room.send({ type: 'chat_message', body: `message ${i}`, client_id: clientId });
    for (const clientId of ids) await room.next('chat_message', (f) => f.client_id === clientId);

    for (const bell of bells) {
      // (A round may count a message a moment before its new_message is out: wait for both.)
      await eventually(
        async () =>
          bell.received('notification_count').at(-1)?.count === BURST &&
          bell.received('new_message').length === BURST
            ? true
            : undefined,
        `a last notification_count of ${BURST} (got ${JSON.stringify(bell.received('notification_count'))})`,
      );
      // Counts never go backwards and never pass what was sent.
      const counts = bell.received('notification_count').map((f) => f.count);
      expect(counts).toEqual([...counts].sort((a, b) => a - b));
      expect(counts.length).toBeLessThan(BURST / 2);
    }
    // One query counts every away member of a round.
    expect(counting.mock.calls.length).toBeLessThan(BURST / 2);
    expect(counting.mock.calls.some(([userIds]) => userIds.length === away.length)).toBe(true);
  });

  it('counts each member as they are: readers drop to 0, others keep theirs, across chats', async () => {
    const t = app();
    const [ada, grace, alan] = await people(t, 'Ada', 'Grace', 'Alan');
    const groupA = await createGroup(t, ada.token, 'A');
    const groupB = await createGroup(t, ada.token, 'B');
    for (const g of [groupA, groupB]) for (const p of [grace, alan]) await addMember(t, g, p.user.id);
    const graceBell = (await openNotifications(t, grace.token)).client;
    const alanBell = (await openNotifications(t, alan.token)).client;
    const adaA = await joinRoom(t, ada.token, groupA);
    const adaB = await joinRoom(t, ada.token, groupB);
    open.push(graceBell, alanBell, adaA, adaB);

    const sent = [];
    for (const [i, room] of [adaA, adaB, adaA].entries()) {
      const clientId = newClientId('x');
      room.send({ type: 'chat_message', body: `m${i}`, client_id: clientId });
      sent.push((await room.next('chat_message', (f) => f.client_id === clientId)).message.id as number);
    }
    for (const bell of [graceBell, alanBell])
      await bell.next('notification_count', (f) => f.count === 3, 5000);

    // Grace reads chat A: she is left with B's one; Alan, who read nothing, is not touched.
    const alanFrames = alanBell.received('notification_count').length;
    const graceA = await joinRoom(t, grace.token, groupA);
    open.push(graceA);
    graceA.send({ type: 'read_messages', message_ids: [sent[0], sent[2]] });
    await eventually(
      async () => (graceBell.received('notification_count').at(-1)?.count === 1 ? true : undefined),
      `Grace's count down to 1 (got ${JSON.stringify(graceBell.received('notification_count'))})`,
    );
    await t.ctx.messages.receiptsSettled();
    expect(await t.ctx.messages.totalsUnread([grace.user.id, alan.user.id, ada.user.id])).toEqual(
      new Map([
        [grace.user.id, 1],
        [alan.user.id, 3],
        [ada.user.id, 0],
      ]),
    );
    // A round already under way may repeat Alan's 3; nothing else reaches him.
    for (const f of alanBell.received('notification_count').slice(alanFrames)) expect(f.count).toBe(3);
  });
});
