import type { ChatDetail } from '@parley/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { realtimeHarness } from '../../test-support/realtime-harness';
import { topics } from './hub';

// chat.updated becomes chat_updated with the group as it is read then. Two changes in quick succession must
// reach the room in the order they were made, however long each read takes, and a stop must wait for both.

const ROOM = topics.room('c1');

/** A read that resolves when the test says so. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const group = (group_name: string) => ({ chat_id: 'c1', group_name, members: [] }) as unknown as ChatDetail;

let h: ReturnType<typeof realtimeHarness>;
afterEach(() => h.service.close());

describe('chat.updated', () => {
  it('announces each change in order even when the earlier read answers last', async () => {
    const slow = deferred<ChatDetail>();
    const reads = [slow.promise, Promise.resolve(group('Hut 8'))];
    h = realtimeHarness({ groupDetail: async () => (reads.shift() as Promise<ChatDetail>) ?? null });
    await h.listen(ROOM);

    h.events.emit('chat.updated', { chatId: 'c1' }); // read before the rename…
    h.events.emit('chat.updated', { chatId: 'c1' }); // …and after it
    await new Promise((r) => setTimeout(r, 10));
    expect(h.published).toEqual([]); // the second waits for the first

    slow.resolve(group('Bletchley'));
    await h.lifecycle.settled();
    expect(h.published.map((p) => (p.frame.chat as ChatDetail).group_name)).toEqual(['Bletchley', 'Hut 8']);
    expect(h.error).not.toHaveBeenCalled();
  });

  it('goes on with the next change after a read that failed, and logs the failure', async () => {
    const reads = [Promise.reject(new Error('database gone')), Promise.resolve(group('Hut 8'))];
    h = realtimeHarness({ groupDetail: async () => (reads.shift() as Promise<ChatDetail>) ?? null });
    await h.listen(ROOM);

    h.events.emit('chat.updated', { chatId: 'c1' });
    h.events.emit('chat.updated', { chatId: 'c1' });
    await h.lifecycle.settled();
    expect(h.published.map((p) => p.frame.type)).toEqual(['chat_updated']);
    expect(h.error).toHaveBeenCalledTimes(1);
  });

  it('is counted in the lifecycle until it is out, so a stop waits for it', async () => {
    const slow = deferred<ChatDetail>();
    h = realtimeHarness({ groupDetail: () => slow.promise });
    await h.listen(ROOM);

    h.events.emit('chat.updated', { chatId: 'c1' });
    let settled = false;
    const waiting = h.lifecycle.settled().then(() => {
      settled = true;
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(settled).toBe(false);

    slow.resolve(group('Hut 8'));
    await waiting;
    expect(h.published.map((p) => p.frame.type)).toEqual(['chat_updated']);
  });
});
