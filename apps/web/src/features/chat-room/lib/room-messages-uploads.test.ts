import type { Message } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { testMessage } from '../../../lib/messages/test-message';
import { initialRoomMessages, type PendingMessage, type RoomMessages, roomReducer } from './room-messages';

// A message with files: pending while it uploads, with progress, then replaced by the server's echo.

const uploading: PendingMessage = {
  client_id: 'c-1',
  body: '',
  timestamp: '2026-01-01T12:00:00.000Z',
  status: 'uploading',
  progress: 0,
  uploads: [{ name: 'cat.png', size: 1200, type: 'image' }],
};

const echo = (patch: Partial<Message> = {}): Message =>
  testMessage(7, {
    sender: 1,
    sender_name: 'Ada',
    sender_username: 'ada',
    body: '',
    files: [
      { id: 3, type: 'image', file: '/api/files/3/cat.png', name: 'cat.png', size: 1200, thumbnail: null },
    ],
    timestamp: '2026-01-01T12:00:01.000Z',
    client_id: 'c-1',
    ...patch,
  });

const withPending = (): RoomMessages =>
  roomReducer({ ...initialRoomMessages, loaded: true }, { type: 'pending', pending: uploading });

describe('pending messages with files', () => {
  it('records progress, then the uploaded ids, and the echo replaces the pending message', () => {
    let state = withPending();
    state = roomReducer(state, { type: 'pending_update', client_id: 'c-1', patch: { progress: 0.42 } });
    expect(state.pending[0]).toMatchObject({ status: 'uploading', progress: 0.42 });
    state = roomReducer(state, {
      type: 'pending_update',
      client_id: 'c-1',
      patch: { status: 'sending', progress: 1, file_ids: [3] },
    });
    expect(state.pending[0]).toMatchObject({ status: 'sending', file_ids: [3], uploads: uploading.uploads });
    state = roomReducer(state, { type: 'received', message: echo(), client_id: 'c-1' });
    expect(state.pending).toEqual([]);
    expect(state.messages.map((m) => m.files.length)).toEqual([1]);
  });

  it('drops a refused upload, and ignores updates for unknown ids', () => {
    const state = withPending();
    expect(roomReducer(state, { type: 'pending_update', client_id: 'nope', patch: { progress: 1 } })).toBe(
      state,
    );
    expect(roomReducer(state, { type: 'pending_remove', client_id: 'nope' })).toBe(state);
    expect(roomReducer(state, { type: 'pending_remove', client_id: 'c-1' }).pending).toEqual([]);
  });
});
