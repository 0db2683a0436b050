import { CLOSE_AUTH_FAILED, CLOSE_NOT_FOUND, type Message } from '@parley/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DomainEventMap } from '../../platform/events';
import { realtimeHarness } from '../../test-support/realtime-harness';
import { topics } from './hub';

// Domain events become frames on the bus. message.published is the one way a message reaches sockets: the
// room gets it, members away from the room are told (new_message, then a count), a resend goes to the room only.

const [ADA, GRACE, ALAN, BOB] = [1, 2, 3, 4];
const ROOM = topics.room('c1');

let h: ReturnType<typeof realtimeHarness>;
beforeEach(async () => {
  vi.useFakeTimers();
  h = realtimeHarness();
  await h.listen(ROOM, ...[ADA, GRACE, ALAN, BOB].map(topics.user));
  // Grace has the chat open; Alan and Bob do not.
  await h.rooms.join('c1', GRACE);
});
afterEach(() => {
  h.service.close();
  vi.useRealTimers();
});

/** A message as the writer publishes it; only what the fan-out reads matters here. */
const message = (o: Partial<Message> = {}) =>
  ({
    id: 7,
    sender: ADA,
    sender_name: 'Ada',
    sender_username: 'ada',
    sender_avatar: null,
    body: 'hello',
    kind: 'user',
    mentions: [],
    ...o,
  }) as Message;

const publish = (o: Partial<DomainEventMap['message.published']> = {}) =>
  h.events.emit('message.published', {
    chatId: 'c1',
    isPrivate: false,
    message: message(),
    clientId: 'k1',
    memberIds: [ADA, GRACE, ALAN, BOB],
    resend: false,
    ...o,
  });

/** The frames each topic got, in order. */
const frames = (topic: string) => h.published.filter((p) => p.topic === topic).map((p) => p.frame);

const notice = (o: Record<string, unknown> = {}) => ({
  type: 'new_message',
  message: {
    sender: 'Ada',
    sender_avatar: null,
    message: 'hello',
    chatroom_id: 'c1',
    is_private: false,
    message_id: 7,
    ...o,
  },
});

describe('message.published', () => {
  it('goes to the room, and members away from it are told, then counted in one round', async () => {
    publish();
    await vi.advanceTimersByTimeAsync(0);
    expect(frames(ROOM)).toEqual([{ type: 'chat_message', message: message(), client_id: 'k1' }]);
    for (const away of [ALAN, BOB])
      expect(frames(topics.user(away))).toEqual([notice(), { type: 'notification_count', count: 0 }]);
    // Neither the sender nor someone in the room is notified.
    expect(frames(topics.user(ADA))).toEqual([]);
    expect(frames(topics.user(GRACE))).toEqual([]);
    expect(h.totalsUnread.mock.calls).toEqual([[[ALAN, BOB]]]);
  });

  it('flags the notice of those the message mentions', async () => {
    publish({ message: message({ mentions: [BOB] }) });
    await vi.advanceTimersByTimeAsync(0);
    expect(frames(topics.user(ALAN))[0]).toEqual(notice());
    expect(frames(topics.user(BOB))[0]).toEqual(notice({ mention: true }));
  });

  it('sends a resend to the room again and to nobody else', async () => {
    publish({ resend: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(frames(ROOM)).toEqual([{ type: 'chat_message', message: message(), client_id: 'k1' }]);
    expect(h.published.filter((p) => p.topic !== ROOM)).toEqual([]);
    expect(h.totalsUnread).not.toHaveBeenCalled();
  });

  it('sends a system line to the room only', async () => {
    const line = message({ kind: 'system', sender: null, sender_name: '', body: 'Ada added Bob' });
    publish({ message: line, clientId: null });
    await vi.advanceTimersByTimeAsync(0);
    expect(frames(ROOM)).toEqual([{ type: 'chat_message', message: line, client_id: null }]);
    expect(h.published.filter((p) => p.topic !== ROOM)).toEqual([]);
  });

  it('logs a fan-out that fails half-way instead of throwing, under a job id and the sending request', async () => {
    h.absentAmong.mockRejectedValueOnce(new Error('redis down'));
    publish({ requestId: 'req-7' });
    await vi.advanceTimersByTimeAsync(0);
    expect(frames(ROOM)).toHaveLength(1);
    expect(h.error).toHaveBeenCalledWith({ err: new Error('redis down') }, 'realtime fan-out failed');
    expect(h.child).toHaveBeenCalledWith({
      job: 'realtime fan-out',
      job_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      reqId: 'req-7',
    });
  });
});

describe('receipts and membership events', () => {
  it('turns receipts into messages_delivered and messages_read frames for the room', async () => {
    h.events.emit('messages.read', { chatId: 'c1', userId: GRACE, messageIds: [5, 7], deliveredIds: [7] });
    await vi.advanceTimersByTimeAsync(0);
    h.events.emit('messages.read', { chatId: 'c1', userId: ALAN, messageIds: [7], deliveredIds: [] });
    await vi.advanceTimersByTimeAsync(0);
    h.events.emit('messages.delivered', { chatId: 'c1', messageIds: [8] });
    await vi.advanceTimersByTimeAsync(0);
    expect(frames(ROOM)).toEqual([
      { type: 'messages_delivered', message_ids: [7] },
      { type: 'messages_read', message_ids: [5, 7], user_id: GRACE },
      { type: 'messages_read', message_ids: [7], user_id: ALAN },
      { type: 'messages_delivered', message_ids: [8] },
    ]);
  });

  it("closes a removed member's sockets in that chat, and refreshes their list and count", async () => {
    h.events.emit('member.removed', { chatId: 'c1', userId: BOB });
    await vi.advanceTimersByTimeAsync(0);
    expect(frames(topics.user(BOB))).toEqual([
      { type: 'close', code: CLOSE_NOT_FOUND, chatId: 'c1' },
      { type: 'chats_changed' },
      { type: 'notification_count', count: 0 },
    ]);
  });

  it("closes a deleted chat's room, and refreshes its members' lists and counts", async () => {
    h.events.emit('chat.deleted', { chatId: 'c1', avatar: null, memberIds: [ADA, GRACE] });
    await vi.advanceTimersByTimeAsync(0);
    expect(frames(ROOM)).toEqual([{ type: 'close', code: CLOSE_NOT_FOUND }]);
    for (const id of [ADA, GRACE])
      expect(frames(topics.user(id))).toEqual([
        { type: 'chats_changed' },
        { type: 'notification_count', count: 0 },
      ]);
  });

  it("closes the revoked sessions' sockets with 4001", async () => {
    h.events.emit('sessions.revoked', { userId: ADA, sessionIds: [3, 4] });
    await vi.advanceTimersByTimeAsync(0);
    expect(frames(topics.user(ADA))).toEqual([
      { type: 'close', code: CLOSE_AUTH_FAILED, sessionIds: [3, 4] },
    ]);
  });
});
