import { describe, expect, it } from 'vitest';
import { messageFrame, NOT_CONNECTED_TEXT, SEND_FAILED_TEXT, sendFailure } from './room-sends';

describe('messageFrame', () => {
  it('carries the id of the message it answers', () => {
    const reply_to = { id: 5, sender_name: 'Grace', body: 'hi', is_deleted: false };
    expect(messageFrame({ body: 'Yes', client_id: 'c3', reply_to })).toEqual({
      type: 'chat_message',
      body: 'Yes',
      client_id: 'c3',
      reply_to: 5,
    });
  });

  it('sends the text and client_id of a message without files', () => {
    expect(messageFrame({ body: 'Hi', client_id: 'c1' })).toEqual({
      type: 'chat_message',
      body: 'Hi',
      client_id: 'c1',
    });
    expect(messageFrame({ body: 'Hi', client_id: 'c1', file_ids: [] })).not.toHaveProperty('file_ids');
  });

  it("adds the files' ids when it carries files, even with an empty body", () => {
    expect(messageFrame({ body: '', client_id: 'c2', file_ids: [7, 8] })).toEqual({
      type: 'chat_message',
      body: '',
      client_id: 'c2',
      file_ids: [7, 8],
    });
  });
});

describe('sendFailure', () => {
  it('is null for a frame that went out', () => {
    expect(sendFailure('sent')).toBeNull();
  });

  it('asks to reconnect when nothing was connected, or there is no socket at all', () => {
    expect(sendFailure('not_connected')).toEqual({ text: NOT_CONNECTED_TEXT, reconnect: true });
    expect(sendFailure(undefined)).toEqual({ text: NOT_CONNECTED_TEXT, reconnect: true });
  });

  it('only reports a write that failed on an open socket', () => {
    expect(sendFailure('failed')).toEqual({ text: SEND_FAILED_TEXT, reconnect: false });
  });
});
