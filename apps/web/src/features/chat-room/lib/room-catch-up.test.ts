import type { Message } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { testMessage } from '../../../lib/messages/test-message';
import { CATCH_UP_LIMIT, catchUpMessages, type PageFetch, pagesBetween } from './room-catch-up';
import { initialRoomMessages, mergeMessages, type RoomMessages, roomReducer } from './room-messages';

const ME = 1;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** The history as the server reads it now, answering pages the way GET …/messages/ does. */
function fakeServer(ids: number[]) {
  const history = new Map(ids.map((id) => [id, testMessage(id)]));
  const asked: { before?: number; after?: number; limit: number }[] = [];
  const fetchPage: PageFetch = async (q) => {
    asked.push(q);
    const limit = Math.min(q.limit, CATCH_UP_LIMIT);
    const all = [...history.values()].sort((a, b) => a.id - b.id);
    if (q.after !== undefined) return all.filter((m) => m.id > q.after!).slice(0, limit);
    const before = all.filter((m) => q.before === undefined || m.id < q.before);
    return before.slice(Math.max(0, before.length - limit));
  };
  const change = (id: number, patch: Partial<Message>) => history.set(id, { ...history.get(id)!, ...patch });
  const add = (more: number[]) => {
    for (const id of more) history.set(id, testMessage(id));
  };
  return { fetchPage, asked, change, add };
}

const loaded = (messages: Message[]): RoomMessages =>
  roomReducer(initialRoomMessages, { type: 'page', messages, position: 'latest' });
const byId = (s: RoomMessages, id: number) => s.messages.find((m) => m.id === id);

describe('catching up after a reconnect', () => {
  it('refreshes every loaded message that changed while away, not only the newest page', async () => {
    const server = fakeServer(range(1, 300));
    // Older pages and an ?around= page made the list reach back well past the newest page.
    const before = loaded(range(101, 300).map((id) => testMessage(id)));

    server.change(105, { body: 'fixed typo', edited_at: '2026-01-02T09:00:00.000Z' });
    server.change(180, { body: '', is_deleted: true });
    server.change(299, { reactions: [{ emoji: '🎉', count: 1, me: false, user_ids: [2] }] });
    // More than a page arrived meanwhile.
    server.add(range(301, 460));

    const fetched = await catchUpMessages(server.fetchPage, before.messages);
    const after = roomReducer(before, { type: 'page', messages: fetched, position: 'newer' });

    expect(after.messages.map((m) => m.id)).toEqual(range(101, 460));
    expect(byId(after, 105)).toMatchObject({ body: 'fixed typo', edited_at: '2026-01-02T09:00:00.000Z' });
    expect(byId(after, 180)).toMatchObject({ body: '', is_deleted: true });
    expect(byId(after, 299)?.reactions).toEqual([{ emoji: '🎉', count: 1, me: false, user_ids: [2] }]);
    // Untouched messages keep their objects, so their rows do not draw again.
    expect(byId(after, 200)).toBe(byId(before, 200));
  });

  it('reads the loaded stretch in full pages, newest first, and stops at its first message', async () => {
    const server = fakeServer(range(1, 400));
    const got = await pagesBetween(server.fetchPage, 151, 380);
    expect(got.map((m) => m.id)).toEqual(range(151, 380));
    expect(server.asked).toEqual([
      { before: 381, limit: 100 },
      { before: 281, limit: 100 },
      { before: 181, limit: 100 },
    ]);
  });

  it('fetches nothing for an empty list (the newest page comes instead)', async () => {
    const server = fakeServer(range(1, 10));
    expect(await catchUpMessages(server.fetchPage, [])).toEqual([]);
    expect(server.asked).toEqual([]);
  });
});

describe('mergeMessages updates messages it has in place', () => {
  it('takes the newer copy of known messages among new ones, keeping the list ascending', () => {
    const list = [testMessage(2), testMessage(4), testMessage(6)];
    const merged = mergeMessages(list, [
      testMessage(5),
      testMessage(2, { body: 'edited', edited_at: '2026-01-02T00:00:00.000Z' }),
      testMessage(3),
    ]);
    expect(merged.map((m) => m.id)).toEqual([2, 3, 4, 5, 6]);
    expect(merged[0]!.body).toBe('edited');
    expect(merged[2]).toBe(list[1]);
  });

  it('refreshes the quote of a message edited meanwhile', () => {
    const quote = { id: 1, sender_name: 'Ada', body: 'old text', is_deleted: false };
    const list = [testMessage(1), testMessage(2, { reply_to: quote })];
    const merged = mergeMessages(list, [testMessage(2, { reply_to: { ...quote, body: 'new text' } })]);
    expect(merged[1]!.reply_to?.body).toBe('new text');
  });

  it('never undoes a deletion or an edit the list saw live with an older copy', () => {
    const list = [
      testMessage(1, { body: '', is_deleted: true }),
      testMessage(2, { body: 'second edit', edited_at: '2026-01-02T10:00:00.000Z' }),
    ];
    const stale = [
      testMessage(1, { body: 'was here' }),
      testMessage(2, { body: 'first edit', edited_at: '2026-01-02T09:00:00.000Z' }),
    ];
    expect(mergeMessages(list, stale)).toBe(list);
  });

  it('leaves the messages in `keep` as they are (live frames changed them during the fetch)', () => {
    const mine = [{ emoji: '👍', count: 1, me: true, user_ids: [ME] }];
    const list = [testMessage(1, { reactions: mine }), testMessage(2)];
    const fetched = [
      testMessage(1),
      testMessage(2, { body: 'edited', edited_at: '2026-01-02T00:00:00.000Z' }),
    ];
    const merged = mergeMessages(list, fetched, new Set([1]));
    expect(merged[0]).toBe(list[0]);
    expect(merged[1]!.body).toBe('edited');
  });
});
