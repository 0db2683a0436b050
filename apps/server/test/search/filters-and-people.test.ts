import { pdfOf } from '@parley/fixtures';
import { describe, expect, it } from 'vitest';
import { uploadFiles } from '../attachments/attachment-helpers';
import { createGroup, people, seedMessages, startChat } from '../chats/chat-helpers';
import { type TestApp, useTestApp } from '../helpers/test-app';

// Search filters and people search, on the dialect in use.
const app = useTestApp();

const found = async (t: TestApp, token: string, query: Record<string, string>) => {
  const res = await t.get(`/api/search/messages/?${new URLSearchParams(query)}`, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.results.map((r: { message: { body: string } }) => r.message.body);
};

describe('message search filters', () => {
  it('narrows by chat, by file, and by date; a chat the person is not in is a 404', async () => {
    const t = app();
    const [ada, grace, alan] = await people(t, 'Ada', 'Grace', 'Alan');
    const first = await startChat(t, ada.token, grace.user.id);
    const second = await startChat(t, ada.token, alan.user.id);
    await seedMessages(t, ada.user.id, first, ['plan for grace']);
    await seedMessages(t, ada.user.id, second, ['plan for alan']);
    const up = await uploadFiles(t, ada.token, first, [
      { bytes: pdfOf(), filename: 'plan.pdf', field: 'files' },
    ]);
    await t.ctx.messages.send(ada.user.id, first, { body: 'plan attached', file_ids: [up.body.files[0].id] });

    expect(await found(t, ada.token, { q: 'plan', chat_id: second })).toEqual(['plan for alan']);
    expect(await found(t, ada.token, { q: 'plan', has: 'file' })).toEqual(['plan attached']);
    // Filters alone, without words, are a search too.
    expect(await found(t, ada.token, { has: 'file' })).toEqual(['plan attached']);
    expect(await found(t, ada.token, { q: 'plan', before: '2000-01-01' })).toEqual([]);
    expect(await found(t, ada.token, { q: 'plan', after: '2000-01-01' })).toHaveLength(3);
    expect((await t.get(`/api/search/messages/?q=plan&after=yesterday`, ada.token)).status).toBe(400);
    const outsider = await t.get(`/api/search/messages/?q=plan&chat_id=${second}`, grace.token);
    expect(outsider.status).toBe(404);
    // An unknown sender finds nothing rather than everything.
    expect(await found(t, ada.token, { q: 'plan', from: 'nobody_at_all' })).toEqual([]);
    const group = await createGroup(t, ada.token, 'Quiet');
    expect(await found(t, ada.token, { q: 'plan', chat_id: group })).toEqual([]);
  });
});

describe('GET /api/users/search/', () => {
  it('finds people by the start of any word of their names, ignoring accents, never hidden ones', async () => {
    const t = app();
    const [ada] = await people(t, 'Ada');
    const zoe = await t.signUpAndVerify({ first_name: 'Zoë', last_name: 'Ångström' });
    const hidden = await t.signUpAndVerify({ first_name: 'Zoey', last_name: 'Hidden' });
    expect((await t.put('/api/users/profile/settings/', { hide_profile: true }, hidden.token)).status).toBe(
      200,
    );

    const search = async (q: string) => {
      const res = await t.get(`/api/users/search/?q=${encodeURIComponent(q)}`, ada.token);
      expect(res.status).toBe(200);
      return res.body.map((p: { username: string }) => p.username);
    };
    expect(await search('zoe')).toEqual([zoe.user.username]);
    expect(await search('angst')).toEqual([zoe.user.username]);
    expect(await search('ZOE ANG')).toEqual([zoe.user.username]);
    expect(await search(zoe.user.username.slice(0, 4))).toContain(zoe.user.username);
    expect(await search('zoe hid')).toEqual([]);
    expect(await search('"*')).toEqual([]);
    const card = (await t.get('/api/users/search/?q=zoe', ada.token)).body[0];
    expect(Object.keys(card).sort()).toEqual(
      ['avatar', 'displayname', 'id', 'is_blue_verified', 'is_online', 'username'].sort(),
    );
    expect((await t.get('/api/users/search/?q=', ada.token)).status).toBe(400);
    expect((await t.get('/api/users/search/?q=zoe')).status).toBe(401);
  });
});
