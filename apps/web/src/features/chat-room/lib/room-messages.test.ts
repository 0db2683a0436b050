import type { Message } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { testMessage } from '../../../lib/messages/test-message';
import {
  initialRoomMessages,
  mergeMessages,
  type RoomMessages,
  roomReducer,
  seededRoomMessages,
  undeliveredFromOthers,
  unreadFromOthers,
} from './room-messages';

const ME = 1;
let seq = 0;
const msg = (id: number, patch: Partial<Message> = {}): Message =>
  testMessage(id, { timestamp: new Date(Date.UTC(2026, 0, 1, 12, 0, seq++)).toISOString(), ...patch });
const ids = (s: RoomMessages) => s.messages.map((m) => m.id);

describe('mergeMessages', () => {
  it('appends newer messages and keeps the list ascending and unique', () => {
    const list = [msg(1), msg(2)];
    expect(mergeMessages(list, [msg(4), msg(3), msg(4)]).map((m) => m.id)).toEqual([1, 2, 3, 4]);
  });

  it('merges older and overlapping pages without duplicates', () => {
    const list = [msg(5), msg(6), msg(7)];
    expect(mergeMessages(list, [msg(3), msg(4), msg(5), msg(6)]).map((m) => m.id)).toEqual([3, 4, 5, 6, 7]);
  });

  it('returns the same list when nothing comes in', () => {
    const list = [msg(1)];
    expect(mergeMessages(list, [])).toBe(list);
  });

  it('never moves a tick backwards when a stale copy arrives', () => {
    const list = [msg(1, { is_read: true, is_delivered: true })];
    const merged = mergeMessages(list, [msg(1, { is_read: false, is_delivered: false, body: 'edited' })]);
    expect(merged[0]).toMatchObject({ is_read: true, is_delivered: true, body: 'edited' });
  });
});

describe('seededRoomMessages', () => {
  it('starts a room with its newest page when the cache has it, else empty', () => {
    expect(seededRoomMessages(undefined)).toBe(initialRoomMessages);
    const page = [msg(1), msg(2)];
    expect(seededRoomMessages(page)).toEqual(
      roomReducer(initialRoomMessages, { type: 'page', messages: page, position: 'latest' }),
    );
    expect(seededRoomMessages(page)).toMatchObject({ loaded: true, hasOlder: false });
  });
});

describe('roomReducer', () => {
  it('the latest page sets hasOlder when it is full', () => {
    const full = Array.from({ length: 50 }, (_, i) => msg(i + 1));
    const s = roomReducer(initialRoomMessages, { type: 'page', messages: full, position: 'latest' });
    expect(s.loaded).toBe(true);
    expect(s.hasOlder).toBe(true);
    const short = roomReducer(initialRoomMessages, { type: 'page', messages: [msg(1)], position: 'latest' });
    expect(short.hasOlder).toBe(false);
  });

  it('an older page prepends and ends paging when short', () => {
    let s = roomReducer(initialRoomMessages, {
      type: 'page',
      messages: [msg(10), msg(11)],
      position: 'latest',
      pageSize: 2,
    });
    s = roomReducer(s, { type: 'page', messages: [msg(8), msg(9)], position: 'older', pageSize: 2 });
    expect(ids(s)).toEqual([8, 9, 10, 11]);
    expect(s.hasOlder).toBe(true);
    s = roomReducer(s, { type: 'page', messages: [msg(7)], position: 'older', pageSize: 2 });
    expect(ids(s)).toEqual([7, 8, 9, 10, 11]);
    expect(s.hasOlder).toBe(false);
  });

  it('a catch-up page after a reconnect adds only what was missed', () => {
    let s = roomReducer(initialRoomMessages, {
      type: 'page',
      messages: [msg(1), msg(2)],
      position: 'latest',
    });
    s = roomReducer(s, { type: 'received', message: msg(3) });
    s = roomReducer(s, { type: 'page', messages: [msg(3), msg(4), msg(5)], position: 'newer' });
    expect(ids(s)).toEqual([1, 2, 3, 4, 5]);
  });

  it('adds an incoming message only once, whichever way it arrives', () => {
    let s = roomReducer(initialRoomMessages, { type: 'page', messages: [msg(1)], position: 'latest' });
    const m2 = msg(2);
    s = roomReducer(s, { type: 'received', message: m2 });
    const again = roomReducer(s, { type: 'received', message: m2 });
    expect(again).toBe(s);
    expect(ids(roomReducer(s, { type: 'page', messages: [m2], position: 'newer' }))).toEqual([1, 2]);
  });

  it('shows a pending send at once and replaces it when the server echoes its client_id', () => {
    let s = roomReducer(initialRoomMessages, { type: 'page', messages: [], position: 'latest' });
    const pending = {
      client_id: 'abc',
      body: 'hi',
      timestamp: new Date().toISOString(),
      status: 'sending' as const,
    };
    s = roomReducer(s, { type: 'pending', pending });
    s = roomReducer(s, { type: 'pending', pending });
    expect(s.pending).toHaveLength(1);
    s = roomReducer(s, {
      type: 'received',
      message: msg(7, { sender: ME, body: 'hi', client_id: 'abc' }),
      client_id: 'abc',
    });
    expect(s.pending).toEqual([]);
    expect(ids(s)).toEqual([7]);
  });

  it('a pending send that the server stored before a drop is cleared by the catch-up page', () => {
    let s = roomReducer(initialRoomMessages, { type: 'page', messages: [msg(1)], position: 'latest' });
    s = roomReducer(s, {
      type: 'pending',
      pending: { client_id: 'x1', body: 'a', timestamp: '', status: 'sending' },
    });
    s = roomReducer(s, {
      type: 'pending',
      pending: { client_id: 'x2', body: 'b', timestamp: '', status: 'sending' },
    });
    s = roomReducer(s, {
      type: 'page',
      messages: [msg(2, { sender: ME, client_id: 'x1' })],
      position: 'newer',
    });
    expect(s.pending.map((p) => p.client_id)).toEqual(['x2']);
  });

  it('an error frame with a client_id marks that send failed; retry makes it pending again', () => {
    let s = roomReducer(initialRoomMessages, {
      type: 'pending',
      pending: { client_id: 'x1', body: 'a', timestamp: '', status: 'sending' },
    });
    s = roomReducer(s, { type: 'pending_failed', client_id: 'x1', error: 'Too fast' });
    expect(s.pending[0]).toMatchObject({ status: 'error', error: 'Too fast' });
    s = roomReducer(s, { type: 'pending_retry', client_id: 'x1' });
    expect(s.pending[0]!.status).toBe('sending');
    expect(roomReducer(s, { type: 'pending_failed', client_id: 'nope', error: 'e' })).toBe(s);
  });

  it('messages_read marks ids read (and delivered); messages_delivered marks delivered', () => {
    let s = roomReducer(initialRoomMessages, {
      type: 'page',
      messages: [msg(1, { sender: ME }), msg(2, { sender: ME }), msg(3, { sender: ME })],
      position: 'latest',
    });
    s = roomReducer(s, { type: 'delivered', ids: [1, 2] });
    expect(s.messages.map((m) => [m.is_delivered, m.is_read])).toEqual([
      [true, false],
      [true, false],
      [false, false],
    ]);
    s = roomReducer(s, { type: 'read', ids: [2, 3, 99] });
    expect(s.messages.map((m) => [m.is_delivered, m.is_read])).toEqual([
      [true, false],
      [true, true],
      [true, true],
    ]);
    expect(roomReducer(s, { type: 'read', ids: [2] })).toBe(s);
  });
});

describe('threads in the main timeline', () => {
  const summary = { reply_count: 2, last_reply_at: '2026-01-01T12:05:00.000Z', participant_ids: [2, ME] };
  const seeded = () =>
    roomReducer(initialRoomMessages, { type: 'page', messages: [msg(1), msg(2)], position: 'latest' });

  it('leaves a reply that lives in its thread alone out, and shows one also sent to the chat', () => {
    const s = seeded();
    expect(roomReducer(s, { type: 'received', message: msg(3, { thread_root: 1 }) })).toBe(s);
    const shown = roomReducer(s, {
      type: 'received',
      message: msg(4, { thread_root: 1, also_in_chat: true }),
    });
    expect(ids(shown)).toEqual([1, 2, 4]);
  });

  it("sets a root's summary from thread_updated", () => {
    const s = roomReducer(seeded(), { type: 'thread', root_id: 1, thread: summary });
    expect(s.messages[0]!.thread).toEqual(summary);
    expect(roomReducer(s, { type: 'thread', root_id: 1, thread: summary })).toBe(s);
  });

  it('takes a summary that changed while away from a page read again', () => {
    const s = roomReducer(seeded(), {
      type: 'page',
      messages: [msg(1, { thread: summary }), msg(2)],
      position: 'newer',
    });
    expect(s.messages[0]!.thread).toEqual(summary);
  });
});

describe('read and delivery reports', () => {
  const list = [
    msg(1, { sender: ME }),
    msg(2),
    msg(3, { is_read: true, is_delivered: true }),
    msg(4, { is_delivered: true }),
    msg(5, { sender: null, kind: 'system' }),
  ];

  it('reports unread messages from others once', () => {
    expect(unreadFromOthers(list, ME, new Set())).toEqual([2, 4, 5]);
    expect(unreadFromOthers(list, ME, new Set([2, 4, 5]))).toEqual([]);
  });

  it('acknowledges others’ user messages nobody has marked delivered', () => {
    expect(undeliveredFromOthers(list, ME, new Set())).toEqual([2]);
    expect(undeliveredFromOthers(list, ME, new Set([2]))).toEqual([]);
  });
});
