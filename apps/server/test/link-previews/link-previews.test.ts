import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adaAndGraceInRoom, history, people, say } from '../chats/chat-helpers';
import { type PreviewSite, startPreviewSite } from '../helpers/preview-site';
import { type TestApp, useTestApp } from '../helpers/test-app';
import { eventually, type WsClient } from '../helpers/ws-client';

// Link previews end to end in one process: a local website stands for the web (PREVIEW_ALLOW_PRIVATE_HOSTS), the
// preview reaches the room as message_updated after the message itself, and the sender may take it away.

let site: PreviewSite;
beforeAll(async () => {
  site = await startPreviewSite();
});
afterAll(() => site.close());

const previewFrame = (room: WsClient, id: number, has = true) =>
  room.next('message_updated', (f) => f.message.id === id && !!f.message.link_preview === has, 15_000);

const previewRows = (t: TestApp) =>
  t.ctx.db.selectFrom('link_previews').select(['id', 'preview', 'image_key']).execute();

describe('link previews from a page this machine serves', () => {
  const app = useTestApp({ env: { PREVIEW_ALLOW_PRIVATE_HOSTS: 'true' } });

  it('shows the page under the message on both sides, its picture served by Parley', async () => {
    const t = app();
    const { ada, chatId, adaRoom, graceRoom } = await adaAndGraceInRoom(t);
    const url = `${site.origin}/article`;
    const sent = await say(adaRoom, `Read this: ${url} today`);
    // The message itself comes without waiting for the page.
    expect(sent.link_preview).toBeNull();
    const updated = (await previewFrame(graceRoom, sent.id)).message;
    await previewFrame(adaRoom, sent.id);
    expect(updated.link_preview).toEqual({
      url,
      title: 'An article',
      description: 'What it is about.',
      site_name: 'Preview Site',
      image: {
        url: expect.stringMatching(/^\/api\/link-previews\/[0-9a-f]{32}\.webp$/),
        width: 480,
        height: 252,
      },
    });
    const picture = await fetch(`${t.baseUrl}${updated.link_preview.image.url}`);
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/webp');
    expect(
      Buffer.from(await picture.arrayBuffer())
        .subarray(8, 12)
        .toString(),
    ).toBe('WEBP');
    expect((await fetch(`${t.baseUrl}/api/link-previews/${'0'.repeat(32)}.webp`)).status).toBe(404);
    expect((await fetch(`${t.baseUrl}/api/link-previews/..%2F..%2Fsecret`)).status).toBe(404);

    const stored = (await history(t, ada.token, chatId)).find((m: { id: number }) => m.id === sent.id);
    expect(stored.link_preview).toEqual(updated.link_preview);
  });

  it('fetches an address once a day, however many messages name it', async () => {
    const t = app();
    const { adaRoom, graceRoom } = await adaAndGraceInRoom(t);
    const url = `${site.origin}/second`;
    const before = site.hits('/second');
    const first = await say(adaRoom, url);
    await previewFrame(graceRoom, first.id);
    const second = await say(graceRoom, `again ${url}`);
    expect((await previewFrame(adaRoom, second.id)).message.link_preview.title).toBe('A second page');
    expect(site.hits('/second') - before).toBe(1);
  });

  it('lets only the sender remove a preview, which then stays away through an edit', async () => {
    const t = app();
    const { ada, grace, chatId, adaRoom, graceRoom } = await adaAndGraceInRoom(t);
    const [outsider] = await people(t, 'Olga');
    const sent = await say(adaRoom, `${site.origin}/article`);
    await previewFrame(graceRoom, sent.id);
    const path = `/api/chats/${chatId}/messages/${sent.id}/preview/`;
    expect((await t.del(path, grace.token)).status).toBe(403);
    expect((await t.del(path, outsider?.token)).status).toBe(404);
    expect((await t.del(`/api/chats/${chatId}/messages/999999/preview/`, ada.token)).status).toBe(404);
    expect((await t.del(path, ada.token)).status).toBe(204);
    const removed = (await previewFrame(graceRoom, sent.id, false)).message;
    expect(removed.link_preview).toBeNull();

    const edit = await t.request('PATCH', `/api/chats/${chatId}/messages/${sent.id}/`, {
      token: ada.token,
      json: { body: `now ${site.origin}/second` },
    });
    expect(edit.status, edit.text).toBe(200);
    // Another message with the same link gets its preview: had the edit fetched one, it would have come first.
    const later = await say(adaRoom, `${site.origin}/second`);
    await previewFrame(graceRoom, later.id);
    expect(
      (await history(t, ada.token, chatId)).find((m: { id: number }) => m.id === sent.id).link_preview,
    ).toBeNull();
  });

  it('follows an edit that changes the first link, and drops the preview of a link edited away', async () => {
    const t = app();
    const { ada, chatId, adaRoom, graceRoom } = await adaAndGraceInRoom(t);
    const sent = await say(adaRoom, `${site.origin}/article`);
    await previewFrame(graceRoom, sent.id);
    const edit = (body: string) =>
      t.request('PATCH', `/api/chats/${chatId}/messages/${sent.id}/`, { token: ada.token, json: { body } });
    expect((await edit(`${site.origin}/second`)).status).toBe(200);
    await graceRoom.next(
      'message_updated',
      (f) => f.message.id === sent.id && f.message.link_preview?.title === 'A second page',
      15_000,
    );
    const dropped = await edit('no link any more');
    expect(dropped.body.link_preview).toBeNull();
  });

  it('sends no request for a message that asked for no preview', async () => {
    const t = app();
    const { ada, chatId, adaRoom, graceRoom } = await adaAndGraceInRoom(t);
    const path = '/article?quiet';
    adaRoom.send({
      type: 'chat_message',
      body: `${site.origin}${path}`,
      client_id: 'quiet',
      no_preview: true,
    });
    const quiet = (await adaRoom.next('chat_message', (f) => f.client_id === 'quiet')).message;
    // A later message's preview arrives after anything the first could have set off.
    const loud = await say(adaRoom, `${site.origin}/second`);
    await previewFrame(graceRoom, loud.id);
    expect(await previewRows(t)).toHaveLength(1);
    expect(
      (await history(t, ada.token, chatId)).find((m: { id: number }) => m.id === quiet.id).link_preview,
    ).toBeNull();
  });

  it('leaves out a picture that is not one by its bytes', async () => {
    const t = app();
    const { adaRoom, graceRoom } = await adaAndGraceInRoom(t);
    const sent = await say(adaRoom, `${site.origin}/program`);
    const preview = (await previewFrame(graceRoom, sent.id)).message.link_preview;
    expect(preview).toMatchObject({ title: 'A program', image: null });
    expect(site.hits('/evil.png')).toBeGreaterThan(0);
  });

  it('forgets a preview and its picture a day after it was fetched, once no message shows it', async () => {
    const t = app();
    const { ada, chatId, adaRoom, graceRoom } = await adaAndGraceInRoom(t);
    const sent = await say(adaRoom, `${site.origin}/article`);
    const preview = (await previewFrame(graceRoom, sent.id)).message.link_preview;
    const long = new Date(Date.now() - 3 * 24 * 3600_000).toISOString();
    await t.ctx.db.updateTable('link_previews').set({ fetched_at: long }).execute();
    expect(await t.ctx.linkPreviews.sweepUnnamed()).toBe(0);
    await t.del(`/api/chats/${chatId}/messages/${sent.id}/`, ada.token);
    expect(await t.ctx.linkPreviews.sweepUnnamed()).toBe(1);
    expect(await previewRows(t)).toEqual([]);
    expect((await fetch(`${t.baseUrl}${preview.image.url}`)).status).toBe(404);
  });
});

describe('link previews in a deployment', () => {
  const app = useTestApp();

  it('never reaches an address on this machine: no request, no preview', async () => {
    const t = app();
    const { ada, chatId, adaRoom } = await adaAndGraceInRoom(t);
    const before = site.hits('/article');
    const sent = await say(adaRoom, `${site.origin}/article and http://localhost/`);
    // The attempt is cached as a miss once the guard said no.
    const rows = await eventually(async () => {
      const found = await previewRows(t);
      return found.length > 0 ? found : undefined;
    }, 'the refused preview to be recorded');
    expect(rows).toEqual([{ id: expect.any(Number), preview: null, image_key: null }]);
    expect(site.hits('/article')).toBe(before);
    expect(
      (await history(t, ada.token, chatId)).find((m: { id: number }) => m.id === sent.id).link_preview,
    ).toBeNull();
  });
});

describe('link previews turned off', () => {
  const app = useTestApp({ env: { LINK_PREVIEWS: 'false', PREVIEW_ALLOW_PRIVATE_HOSTS: 'true' } });

  it('fetches nothing', async () => {
    const t = app();
    const { adaRoom, graceRoom } = await adaAndGraceInRoom(t);
    const before = site.hits('/second');
    const sent = await say(adaRoom, `${site.origin}/second`);
    await say(graceRoom, 'a reply after it');
    expect(t.ctx.linkPreviews.enabled).toBe(false);
    expect(await t.ctx.linkPreviews.previewOf(`${site.origin}/second`)).toBeNull();
    expect(sent.link_preview).toBeNull();
    expect(site.hits('/second')).toBe(before);
  });
});
