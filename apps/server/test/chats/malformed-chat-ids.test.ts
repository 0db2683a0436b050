import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/test-app';
import { people } from './chat-helpers';

// A chat id holding a NUL character names no chat: 404 like any unknown id, on SQLite and on PostgreSQL (which
// refuses such text in a comparison rather than finding nothing).
const app = useTestApp();

describe('a chat id holding a NUL character', () => {
  it('is a chat not found on every kind of chat route', async () => {
    const t = app();
    const [ada] = await people(t, 'Ada');
    for (const path of [
      '/api/chats/%00/',
      '/api/chats/%00/messages/',
      '/api/chats/%00/pins/',
      '/api/chats/a%00b/saved/',
    ]) {
      const res = await t.get(path, ada?.token);
      expect(res.status, `${path}: ${res.text}`).toBe(404);
    }
    const put = await t.put('/api/chats/%00/pins/1/', undefined, ada?.token);
    expect(put.status, put.text).toBe(404);
  });
});
