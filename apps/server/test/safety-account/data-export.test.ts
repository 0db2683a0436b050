import { pngOf } from '@parley/fixtures';
import { EXPORT_MSG } from '@parley/protocol';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { fetchPath, uploadFiles } from '../attachments/attachment-helpers';
import { people, startChat } from '../chats/chat-helpers';
import { clearChat } from '../groups/group-helpers';
import { type TestApp, useTestApp } from '../helpers/test-app';

// "Export my data" — a ZIP of the person's profile, settings, the messages they can see and the files
// they uploaded, mailed as a link, downloadable with their session for 24 hours, and nobody else's.
const app = useTestApp();

const text = (files: Record<string, Uint8Array>, name: string) => {
  const bytes = files[name];
  if (!bytes) throw new Error(`${name} is not in the archive: ${Object.keys(files).join(', ')}`);
  return Buffer.from(bytes).toString('utf8');
};

async function say(t: TestApp, userId: number, chatId: string, body: string, fileIds: number[] = []) {
  await t.ctx.messages.send(userId, chatId, { body, client_id: `c-${Math.random()}`, file_ids: fileIds });
}

describe('export my data', () => {
  it('mails a link to a ZIP of the person’s own data, which only they can download', async () => {
    const t = app();
    const [ada, grace, bob] = await people(t, 'Ada', 'Grace', 'Bob');
    const withGrace = await startChat(t, ada.token, grace.user.id);
    const graceAndBob = await startChat(t, grace.token, bob.user.id);
    await say(t, ada.user.id, withGrace, 'Cleared before the export');
    await clearChat(t, ada.token, withGrace);
    await say(t, ada.user.id, withGrace, 'Hello Grace, from Ada');
    await say(t, grace.user.id, withGrace, 'Hello Ada, from Grace');
    await say(t, grace.user.id, graceAndBob, 'A secret between Grace and Bob');
    const picture = pngOf(8, 8, '#22aa44');
    const uploaded = await uploadFiles(t, ada.token, withGrace, [{ bytes: picture, filename: 'garden.png' }]);
    expect(uploaded.status, uploaded.text).toBe(200);
    const fileId = uploaded.body.files[0].id;
    await say(t, ada.user.id, withGrace, 'A picture', [fileId]);
    const graceFile = await uploadFiles(t, grace.token, graceAndBob, [
      { bytes: pngOf(4, 4), filename: 'private.png' },
    ]);
    expect(graceFile.status).toBe(200);

    expect((await t.post('/api/users/export/', {})).status).toBe(401);
    const asked = await t.post('/api/users/export/', {}, ada.token);
    expect(asked.status, asked.text).toBe(202);
    expect(asked.body).toMatchObject({ status: 'preparing', detail: EXPORT_MSG.started });
    const id: string = asked.body.id;
    await t.ctx.dataExports.settled();

    const mail = await t.mail.waitFor(ada.payload.email);
    expect(mail.text).toContain(`/settings?export=${id}`);
    const listed = await t.get('/api/users/export/', ada.token);
    expect(listed.body.results).toEqual([expect.objectContaining({ id, status: 'ready' })]);
    expect((await t.get('/api/users/export/', grace.token)).body.results).toEqual([]);

    // Someone else's session, or none: nothing there.
    expect((await fetchPath(t, `/api/users/export/${id}/`, grace.token)).status).toBe(404);
    expect((await fetchPath(t, `/api/users/export/${id}/`)).status).toBe(401);
    expect((await fetchPath(t, '/api/users/export/no-such-export/', ada.token)).status).toBe(404);

    const download = await fetchPath(t, `/api/users/export/${id}/`, ada.token);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/zip');
    expect(download.headers.get('content-disposition')).toContain('attachment');
    const files = unzipSync(new Uint8Array(download.bytes));
    const names = Object.keys(files).sort();
    expect(names).toEqual(
      [
        'README.txt',
        'chats.json',
        `chats/${withGrace}.json`,
        `files/${fileId}-garden.png`,
        'profile.json',
        'settings.json',
      ].sort(),
    );
    expect(JSON.parse(text(files, 'profile.json'))).toMatchObject({
      username: ada.user.username,
      email: ada.payload.email,
    });
    expect(JSON.parse(text(files, 'settings.json')).user.email).toBe(ada.payload.email);
    const chat = JSON.parse(text(files, `chats/${withGrace}.json`));
    expect(chat.messages.map((m: { body: string }) => m.body)).toEqual([
      'Hello Grace, from Ada',
      'Hello Ada, from Grace',
      'A picture',
    ]);
    expect(Buffer.from(files[`files/${fileId}-garden.png`] as Uint8Array).equals(picture)).toBe(true);

    // Nothing of anyone else's private data: Grace's email, her chat with Bob, her file.
    const everything = names.map((n) => Buffer.from(files[n] as Uint8Array).toString('latin1')).join('\n');
    for (const secret of [
      grace.payload.email,
      bob.payload.email,
      'A secret between Grace and Bob',
      graceAndBob,
      'private.png',
      'Cleared before',
    ])
      expect(everything).not.toContain(secret);

    expect((await t.ctx.audit.list({ type: 'export.created' })).results).toHaveLength(1);
  });

  it('is gone after 24 hours: 410 until swept, then 404 and the file removed', async () => {
    const t = app();
    const [ada] = await people(t, 'Ada');
    const id = (await t.post('/api/users/export/', {}, ada.token)).body.id;
    await t.ctx.dataExports.settled();
    const row = await t.ctx.db.selectFrom('data_exports').selectAll().executeTakeFirstOrThrow();
    expect(row.storage_key).not.toBeNull();
    expect(await t.ctx.storage.size(row.storage_key as string)).toBeGreaterThan(0);

    await t.ctx.db
      .updateTable('data_exports')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    const late = await fetchPath(t, `/api/users/export/${id}/`, ada.token);
    expect(late.status).toBe(410);
    expect(JSON.parse(late.bytes.toString()).detail).toBe(EXPORT_MSG.expired);
    expect((await t.get('/api/users/export/', ada.token)).body.results).toEqual([]);

    expect(await t.ctx.dataExports.sweepExpired()).toBe(1);
    expect((await fetchPath(t, `/api/users/export/${id}/`, ada.token)).status).toBe(404);
    expect(await t.ctx.storage.size(row.storage_key as string)).toBeNull();
  });

  it('leaves out an uploaded file gone from the store, and still completes', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const chatId = await startChat(t, ada.token, grace.user.id);
    const up = await uploadFiles(t, ada.token, chatId, [
      { bytes: pngOf(4, 4, '#ff0000'), filename: 'kept.png' },
      { bytes: pngOf(4, 4, '#0000ff'), filename: 'lost.png' },
    ]);
    expect(up.status, up.text).toBe(200);
    const [kept, lost] = up.body.files;
    const row = await t.ctx.db
      .selectFrom('files')
      .select('storage_key')
      .where('id', '=', lost.id)
      .executeTakeFirstOrThrow();
    await t.ctx.storage.delete(row.storage_key);

    const id = (await t.post('/api/users/export/', {}, ada.token)).body.id;
    await t.ctx.dataExports.settled();
    const download = await fetchPath(t, `/api/users/export/${id}/`, ada.token);
    expect(download.status).toBe(200);
    const names = Object.keys(unzipSync(new Uint8Array(download.bytes)));
    expect(names).toContain(`files/${kept.id}-kept.png`);
    expect(names.some((n) => n.includes('lost.png'))).toBe(false);
  });

  it('goes with a deleted account, its file too', async () => {
    const t = app();
    const [ada] = await people(t, 'Ada');
    expect((await t.post('/api/users/export/', {}, ada.token)).status).toBe(202);
    await t.ctx.dataExports.settled();
    const { storage_key } = await t.ctx.db
      .selectFrom('data_exports')
      .select('storage_key')
      .executeTakeFirstOrThrow();
    expect(await t.ctx.storage.size(storage_key as string)).toBeGreaterThan(0);

    expect((await t.deleteAccount(ada.token)).status).toBe(204);
    expect(await t.ctx.db.selectFrom('data_exports').selectAll().execute()).toEqual([]);
    expect(await t.ctx.storage.size(storage_key as string)).toBeNull();
  });

  it('is limited to 3 a day per person', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    for (let i = 0; i < 3; i++) expect((await t.post('/api/users/export/', {}, ada.token)).status).toBe(202);
    const refused = await t.post('/api/users/export/', {}, ada.token);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await t.post('/api/users/export/', {}, grace.token)).status).toBe(202);
    await t.ctx.dataExports.settled();
  });
});
