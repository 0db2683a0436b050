import { describe, expect, it } from 'vitest';
import type { OutboxEntry } from './outbox';
import { filesReady, outboxChanges, outboxFrame, pendingFromOutbox } from './outbox-sends';

const entry = (patch: Partial<OutboxEntry> = {}): OutboxEntry => ({
  client_id: 'c1',
  chat_id: 'chat',
  body: 'Hi',
  timestamp: '2026-01-01T12:00:00.000Z',
  seq: 1,
  ...patch,
});

describe('outboxFrame', () => {
  it('carries the id of the message it answers', () => {
    const reply_to = { id: 5, sender_name: 'Grace', body: 'hi', is_deleted: false };
    expect(outboxFrame({ body: 'Yes', client_id: 'c3', reply_to })).toEqual({
      type: 'chat_message',
      body: 'Yes',
      client_id: 'c3',
      reply_to: 5,
    });
  });

  it('sends the text and client_id of a message without files', () => {
    expect(outboxFrame({ body: 'Hi', client_id: 'c1' })).toEqual({
      type: 'chat_message',
      body: 'Hi',
      client_id: 'c1',
    });
    expect(outboxFrame({ body: 'Hi', client_id: 'c1', file_ids: [] })).not.toHaveProperty('file_ids');
  });

  it("adds the files' ids when it carries files, even with an empty body", () => {
    expect(outboxFrame({ body: '', client_id: 'c2', file_ids: [7, 8] })).toEqual({
      type: 'chat_message',
      body: '',
      client_id: 'c2',
      file_ids: [7, 8],
    });
  });

  it("names a thread reply's root, and the chat only when the reply goes there too", () => {
    expect(outboxFrame(entry({ thread_root: 40, also_in_chat: false }))).toEqual({
      type: 'chat_message',
      body: 'Hi',
      client_id: 'c1',
      thread_root: 40,
    });
    expect(outboxFrame(entry({ thread_root: 40, also_in_chat: true }))).toMatchObject({
      thread_root: 40,
      also_in_chat: true,
    });
    // Without a root the flag means nothing, and the server would refuse it.
    expect(outboxFrame(entry({ also_in_chat: true }))).not.toHaveProperty('also_in_chat');
  });
});

describe('pendingFromOutbox', () => {
  it('waits for its files until their ids are kept, and shows a refusal with the message', () => {
    const uploads = [{ name: 'a.png', size: 3, type: 'image' as const }];
    const files = [new File(['png'], 'a.png')];
    expect(filesReady(entry({ files }))).toBe(false);
    expect(pendingFromOutbox(entry({ files, uploads }))).toMatchObject({ status: 'uploading', progress: 0 });
    expect(filesReady(entry({ files, file_ids: [9] }))).toBe(true);
    expect(pendingFromOutbox(entry({ uploads, file_ids: [9] }))).toMatchObject({
      status: 'sending',
      progress: 1,
      file_ids: [9],
    });
    expect(pendingFromOutbox(entry({ error: 'Slow down' }))).toMatchObject({
      status: 'error',
      error: 'Slow down',
    });
  });
});

describe('outboxChanges', () => {
  const pending = (client_id: string, status: 'sending' | 'error' | 'uploading', error?: string) => ({
    client_id,
    body: 'x',
    timestamp: '',
    status,
    ...(error ? { error } : {}),
  });

  it('removes what left the list, keeps a refusal and clears it on retry', () => {
    const before = [pending('a', 'sending'), pending('b', 'sending'), pending('c', 'error', 'No')];
    const after = [pending('b', 'error', 'Slow down'), pending('c', 'uploading')];
    expect(outboxChanges(before, after)).toEqual({
      remove: ['a'],
      errors: [
        { client_id: 'b', error: 'Slow down' },
        { client_id: 'c', error: undefined },
      ],
    });
    expect(outboxChanges(after, after)).toEqual({ remove: [], errors: [] });
  });
});
