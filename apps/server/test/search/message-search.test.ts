import { describe, expect, it } from 'vitest';
import {
  addMember,
  createGroup,
  fullName,
  people,
  removeMember,
  seedMessages,
  startChat,
} from '../chats/chat-helpers';
import { useTestApp } from '../helpers/test-app';

// Message search on the real index of the dialect in use: FTS5 on SQLite, tsvector on PostgreSQL.
const app = useTestApp();

const search = async (t: ReturnType<typeof app>, token: string, query: Record<string, string>) => {
  const res = await t.get(`/api/search/messages/?${new URLSearchParams(query)}`, token);
  return res;
};
const bodies = (res: { body: { results: { message: { body: string } }[] } }) =>
  res.body.results.map((r) => r.message.body);

describe('GET /api/search/messages/', () => {
  it('finds whole words and prefixes, ignoring case and accents, newest first, with highlights', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const chatId = await startChat(t, ada.token, grace.user.id);
    await seedMessages(t, ada.user.id, chatId, [
      'Meet at the Café',
      'The deployment is done',
      'nothing here',
    ]);
    const found = await search(t, grace.token, { q: 'cafe' });
    expect(found.status).toBe(200);
    expect(bodies(found)).toEqual(['Meet at the Café']);
    expect(found.body.results[0].highlights).toEqual([[12, 16]]);
    expect(found.body.results[0].chat).toMatchObject({
      chat_id: chatId,
      is_private: true,
      display_name: fullName(ada),
    });
    expect(bodies(await search(t, grace.token, { q: 'DEPLOY' }))).toEqual(['The deployment is done']);
    expect(bodies(await search(t, grace.token, { q: '"deployment is"' }))).toEqual([
      'The deployment is done',
    ]);
    expect(bodies(await search(t, grace.token, { q: '"is deployment"' }))).toEqual([]);
  });

  it('never shows a message of a chat the person is not in now, a deleted one, or an edited one by its old text', async () => {
    const t = app();
    const [ada, grace, alan] = await people(t, 'Ada', 'Grace', 'Alan');
    const group = await createGroup(t, ada.token, 'Looms');
    await addMember(t, group, grace.user.id);
    const [kept, gone, edited] = await seedMessages(t, ada.user.id, group, [
      'loom one',
      'loom two',
      'loom three',
    ]);
    expect(bodies(await search(t, alan.token, { q: 'loom' }))).toEqual([]);
    expect((await t.del(`/api/chats/${group}/messages/${gone}/`, ada.token)).status).toBe(204);
    expect(
      (
        await t.request('PATCH', `/api/chats/${group}/messages/${edited}/`, {
          json: { body: 'weaving now' },
          token: ada.token,
        })
      ).status,
    ).toBe(200);
    expect(bodies(await search(t, grace.token, { q: 'loom' }))).toEqual(['loom one']);
    expect(bodies(await search(t, grace.token, { q: 'weaving' }))).toEqual(['weaving now']);
    expect(kept).toBeDefined();
    await removeMember(t, group, grace.user.id);
    expect(bodies(await search(t, grace.token, { q: 'loom' }))).toEqual([]);
  });

  it('reads query syntax as text and refuses a blank query without filters', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const chatId = await startChat(t, ada.token, grace.user.id);
    await seedMessages(t, ada.user.id, chatId, ['near the OR gate']);
    for (const q of ['"', '*', 'NEAR(', 'OR', "'; DROP TABLE messages; --", 'a"b', '(', '-x'])
      expect((await search(t, grace.token, { q })).status, q).toBe(200);
    expect(bodies(await search(t, grace.token, { q: 'NEAR(' }))).toEqual(['near the OR gate']);
    const blank = await search(t, grace.token, { q: '  ' });
    expect(blank.status).toBe(400);
    expect(blank.body.q).toEqual(['Enter something to search for.']);
    expect((await search(t, grace.token, { q: 'x'.repeat(201) })).status).toBe(400);
  });

  it('pages with the cursor without duplicates or gaps, and filters by sender', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const chatId = await startChat(t, ada.token, grace.user.id);
    const ids = await seedMessages(
      t,
      ada.user.id,
      chatId,
      Array.from({ length: 7 }, (_, i) => `note ${i}`),
    );
    await seedMessages(t, grace.user.id, chatId, ['note from grace']);
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page = await search(t, ada.token, {
        q: 'note',
        from: ada.user.username,
        limit: '3',
        ...(cursor ? { cursor } : {}),
      });
      seen.push(...page.body.results.map((r: { message: { id: number } }) => r.message.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
  });
});
