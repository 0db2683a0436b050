import { describe, expect, it } from 'vitest';
import type { OutboxEntry } from './outbox';
import { roomThreadReplies, threadSends } from './thread-sends';

const reply = (client_id: string, thread_root: number, patch: Partial<OutboxEntry> = {}): OutboxEntry => ({
  client_id,
  chat_id: 'chat',
  body: client_id,
  timestamp: '2026-01-01T12:00:00.000Z',
  seq: 1,
  thread_root,
  ...patch,
});

describe('threadSends', () => {
  it('knows which threads have a pane open, until each pane on them closes', () => {
    const closeA = threadSends.openPane('pane-chat', 7);
    const closeB = threadSends.openPane('pane-chat', 7);
    expect(threadSends.paneOpen('pane-chat', 7)).toBe(true);
    expect(threadSends.paneOpen('pane-chat', 8)).toBe(false);
    expect(threadSends.paneOpen('other-chat', 7)).toBe(false);
    closeA();
    closeA();
    expect(threadSends.paneOpen('pane-chat', 7)).toBe(true);
    closeB();
    expect(threadSends.paneOpen('pane-chat', 7)).toBe(false);
  });

  it('writes a reply once per connection, whoever holds it, and again after a refusal or a new connection', () => {
    expect(threadSends.take('turn-chat', 'k1')).toBe(true);
    expect(threadSends.take('turn-chat', 'k1')).toBe(false);
    expect(threadSends.take('other-chat', 'k1')).toBe(true);
    threadSends.release('turn-chat', 'k1');
    expect(threadSends.take('turn-chat', 'k1')).toBe(true);
    threadSends.newConnection('turn-chat');
    expect(threadSends.take('turn-chat', 'k1')).toBe(true);
  });
});

describe('roomThreadReplies', () => {
  it('gives the room the ready replies of threads without a pane; refused ones and files to upload wait', () => {
    const entries = [
      reply('open-thread', 1),
      reply('closed-thread', 2),
      reply('refused', 2, { error: 'Slow down' }),
      reply('files-to-upload', 2, { files: [new File(['x'], 'a.txt')] }),
      reply('files-up', 2, { uploads: [{ name: 'a.txt', size: 1, type: 'text' }], file_ids: [5] }),
      { ...reply('timeline', 2), thread_root: undefined },
    ];
    expect(roomThreadReplies(entries, (root) => root === 1).map((e) => e.client_id)).toEqual([
      'closed-thread',
      'files-up',
    ]);
  });
});
