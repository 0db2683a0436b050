import { docxOf, mp4Of, pdfOf, pngOf } from '@parley/fixtures';
import { describe, expect, it } from 'vitest';
import { UrlSigner } from '../../src/modules/attachments/url-signer';
import { createGroup, history, newClientId, people } from '../chats/chat-helpers';
import { groupOf, mediaFiles } from '../groups/group-helpers';
import { type Json, type TestApp, useTestApp } from '../helpers/test-app';
import { eventually, joinRoom, type WsClient } from '../helpers/ws-client';
import { fetchPath, fileRows, uploadFiles, withParam } from './attachment-helpers';

// Attachments in messages and their serving (DESIGN §6, §7): a chat_message carries
// file_ids (body optional), only the sender's own unsent uploads of that chat; the broadcast has files with
// SPEC's types; signed, expiring URLs served with nosniff, a sandboxing CSP and the right disposition.
const app = useTestApp();

const SPEC_TYPES = ['image', 'video', 'pdf', 'text', 'other'];
const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const closeAll = (...clients: WsClient[]) => Promise.all(clients.map((c) => c.close()));

/** Uploads, asserting the 200; the file views. */
async function upload(
  t: TestApp,
  token: string,
  chatId: string,
  files: { bytes: Buffer; filename: string }[],
) {
  const res = await uploadFiles(t, token, chatId, files);
  expect(res.status, res.text).toBe(200);
  return res.body.files as Json[];
}

/** Sends a frame with file_ids and waits for the answer meant for it: its echo or an error frame. */
async function sendFiles(client: WsClient, fileIds: number[], body?: string) {
  const clientId = newClientId('f');
  client.send({
    type: 'chat_message',
    client_id: clientId,
    file_ids: fileIds,
    ...(body === undefined ? {} : { body }),
  });
  return eventually(
    async () =>
      client.frames.find(
        (f) => (f.type === 'chat_message' || f.type === 'error') && f.client_id === clientId,
      ),
    `an answer to ${clientId}`,
  );
}

describe('chat_message with file_ids', () => {
  it('sends files with an empty body; every member gets the message with files of SPEC types', async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace],
    } = await groupOf(t, 'Files', 'Ada', 'Grace');
    const adaRoom = await joinRoom(t, ada.token, chatId);
    const graceRoom = await joinRoom(t, grace.token, chatId);
    const files = await upload(t, ada.token, chatId, [
      { bytes: pngOf(64, 48), filename: 'a.png' },
      { bytes: pdfOf(), filename: 'b.pdf' },
      { bytes: mp4Of(), filename: 'c.mp4' },
      { bytes: Buffer.from('hello'), filename: 'd.txt' },
      { bytes: docxOf(), filename: 'e.docx' },
    ]);
    const ids = files.map((f) => f.id);

    const clientId = newClientId('files');
    adaRoom.send({ type: 'chat_message', body: '', client_id: clientId, file_ids: ids });
    const atGrace = await graceRoom.next('chat_message', (f) => f.client_id === clientId);
    const atAda = await adaRoom.next('chat_message', (f) => f.client_id === clientId);
    expect(atAda.message).toEqual(atGrace.message);
    expect(atGrace.message).toMatchObject({ body: '', sender: ada.user.id, kind: 'user' });
    const sent = atGrace.message.files as Json[];
    expect(sent.map((f) => f.id)).toEqual(ids);
    expect(sent.map((f) => f.type)).toEqual(['image', 'pdf', 'video', 'text', 'other']);
    for (const f of sent) {
      expect(SPEC_TYPES).toContain(f.type);
      expect(f).toMatchObject({
        id: expect.any(Number),
        file: expect.stringMatching(/^\/api\/files\/\d+\//),
      });
    }
    expect(sent[0].thumbnail).toEqual(expect.any(String));

    // Stored with the message: history has the same files, and Grace can open them.
    const stored = await history(t, grace.token, chatId);
    const last = stored[stored.length - 1];
    expect(last.id).toBe(atGrace.message.id);
    expect(last.files.map((f: Json) => [f.id, f.type])).toEqual(sent.map((f) => [f.id, f.type]));
    expect((await fileRows(t, chatId)).map((r) => r.message_id)).toEqual(ids.map(() => last.id));
    const opened = await fetchPath(t, last.files[1].file);
    expect(opened.status).toBe(200);
    expect(opened.headers.get('content-type')).toBe('application/pdf');

    // The body key may be left out altogether; a body with files works too.
    const [more] = await upload(t, grace.token, chatId, [{ bytes: pdfOf('two'), filename: 'two.pdf' }]);
    const noBody = await sendFiles(graceRoom, [more.id]);
    expect(noBody.type).toBe('chat_message');
    expect(noBody.message).toMatchObject({ body: '', files: [{ id: more.id, type: 'pdf' }] });
    const [third] = await upload(t, grace.token, chatId, [{ bytes: pdfOf('3'), filename: '3.pdf' }]);
    const withBody = await sendFiles(graceRoom, [third.id], '  see attached  ');
    expect(withBody.message).toMatchObject({ body: 'see attached', files: [{ id: third.id }] });
    await closeAll(adaRoom, graceRoom);
  });

  it("refuses someone else's upload, another chat's upload, a sent or unknown file: an error frame, nothing stored", async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace],
    } = await groupOf(t, 'Strict', 'Ada', 'Grace');
    const otherChat = await createGroup(t, ada.token, 'Elsewhere');
    const [adaFile] = await upload(t, ada.token, chatId, [{ bytes: pdfOf(), filename: 'ada.pdf' }]);
    const [elsewhere] = await upload(t, ada.token, otherChat, [{ bytes: pdfOf(), filename: 'x.pdf' }]);
    const adaRoom = await joinRoom(t, ada.token, chatId);
    const graceRoom = await joinRoom(t, grace.token, chatId);
    const before = await history(t, ada.token, chatId);

    // Grace cannot send Ada's upload.
    const stolen = await sendFiles(graceRoom, [adaFile.id], 'look what I found');
    expect(stolen).toMatchObject({ type: 'error', message: expect.any(String) });
    // Ada cannot bring a file of another chat here.
    const moved = await sendFiles(adaRoom, [elsewhere.id], 'from elsewhere');
    expect(moved.type).toBe('error');
    // Nor an id that does not exist, nor one good and one bad.
    expect((await sendFiles(adaRoom, [987654])).type).toBe('error');
    expect((await sendFiles(adaRoom, [adaFile.id, elsewhere.id])).type).toBe('error');
    // No body and no files is no message.
    expect((await sendFiles(adaRoom, [], '  ')).type).toBe('error');

    expect(await history(t, ada.token, chatId)).toEqual(before);
    expect((await fileRows(t, chatId)).map((r) => r.message_id)).toEqual([null]);
    expect((await fileRows(t, otherChat)).map((r) => r.message_id)).toEqual([null]);
    expect(graceRoom.received('chat_message')).toEqual([]);
    expect(adaRoom.isOpen && graceRoom.isOpen).toBe(true);

    // Ada's own file goes once; sending it again is refused.
    const ok = await sendFiles(adaRoom, [adaFile.id]);
    expect(ok.type).toBe('chat_message');
    expect((await sendFiles(adaRoom, [adaFile.id], 'again')).type).toBe('error');
    expect((await history(t, grace.token, chatId)).length).toBe(before.length + 1);
    await closeAll(adaRoom, graceRoom);
  });

  it('answers a file id past the database integer range with an error frame that names the message', async () => {
    const t = app();
    const {
      chatId,
      people: [ada],
    } = await groupOf(t, 'Range', 'Ada', 'Grace');
    const adaRoom = await joinRoom(t, ada.token, chatId);
    // The sender's client matches the refusal to its pending message by client_id.
    const answer = await sendFiles(adaRoom, [99999999999], 'huge id');
    expect(answer).toMatchObject({ type: 'error', message: expect.any(String) });
    expect(await history(t, ada.token, chatId)).toHaveLength(1); // only 'Ada added Grace'
    expect((await sendFiles(adaRoom, [], 'still usable')).type).toBe('chat_message');
    await adaRoom.close();
  });
});

describe('GET /api/files/{id}/{name}', () => {
  it('serves each kind with nosniff, a sandboxing CSP (strict for PDF) and the right disposition', async () => {
    const t = app();
    const {
      chatId,
      people: [ada],
    } = await groupOf(t, 'Served', 'Ada', 'Grace');
    const png = pngOf(64, 48);
    const text = Buffer.from('<script>alert(1)</script> just text\n');
    const [image, pdf, txt, docx, video] = await upload(t, ada.token, chatId, [
      { bytes: png, filename: 'pic.png' },
      { bytes: pdfOf(), filename: 'doc.pdf' },
      { bytes: text, filename: 'notes.txt' },
      { bytes: docxOf(), filename: 'letter.docx' },
      { bytes: mp4Of(), filename: 'clip.mp4' },
    ]);
    const expected: [Json, string, 'inline' | 'attachment', boolean][] = [
      [image, 'image/png', 'inline', true],
      [pdf, 'application/pdf', 'inline', false],
      [txt, 'text/plain; charset=utf-8', 'attachment', true],
      [docx, DOCX_MIME, 'attachment', true],
      [video, 'video/mp4', 'inline', true],
    ];
    for (const [file, type, disposition, sandboxed] of expected) {
      const res = await fetchPath(t, file.file);
      expect(res.status, file.name).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-disposition')).toBe(
        `${disposition}; filename*=UTF-8''${encodeURIComponent(file.name)}`,
      );
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'none'");
      expect(csp.split(';').map((d) => d.trim())).toEqual(
        sandboxed ? expect.arrayContaining(['sandbox']) : expect.not.arrayContaining(['sandbox']),
      );
      expect(res.headers.get('set-cookie')).toBeNull();
      expect(Number(res.headers.get('content-length'))).toBe(file.size);
    }
    expect((await fetchPath(t, image.file)).bytes.equals(png)).toBe(true);
    expect((await fetchPath(t, txt.file)).bytes.equals(text)).toBe(true);

    const thumb = await fetchPath(t, image.thumbnail);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    expect(thumb.headers.get('x-content-type-options')).toBe('nosniff');
    expect(thumb.headers.get('content-security-policy')).toContain('sandbox');
    expect(thumb.headers.get('content-disposition')).toMatch(/^inline;/);
  });

  it('answers 404 to a tampered, borrowed, missing or expired signature', async () => {
    const t = app();
    const {
      chatId,
      people: [ada],
    } = await groupOf(t, 'Signed', 'Ada', 'Grace');
    const [eve] = await people(t, 'Eve');
    const [image, pdf] = await upload(t, ada.token, chatId, [
      { bytes: pngOf(64, 48), filename: 'pic.png' },
      { bytes: pdfOf(), filename: 'doc.pdf' },
    ]);
    const sigOf = (url: string) => new URL(url, 'http://x').searchParams.get('sig') as string;
    const expOf = (url: string) => new URL(url, 'http://x').searchParams.get('exp') as string;
    const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
    const bare = `/api/files/${image.id}/pic.png`;

    const refused: [string, string][] = [
      ['no signature', bare],
      ['no signature, with a member token', bare],
      ['a tampered signature', withParam(image.file, 'sig', flip(sigOf(image.file)))],
      ['a shortened signature', withParam(image.file, 'sig', sigOf(image.file).slice(0, 20))],
      ['another file’s signature', withParam(image.file, 'sig', sigOf(pdf.file))],
      ['the thumbnail’s signature on the file', withParam(image.file, 'sig', sigOf(image.thumbnail))],
      ['the file’s signature on the thumbnail', withParam(image.thumbnail, 'sig', sigOf(image.file))],
      [
        'a later expiry with the same signature',
        withParam(image.file, 'exp', String(Number(expOf(image.file)) + 3600_000)),
      ],
      ['no expiry', `${bare}?sig=${sigOf(image.file)}`],
      [
        'a signed URL moved to another id',
        `/api/files/${pdf.id}/pic.png?exp=${expOf(image.file)}&sig=${sigOf(image.file)}`,
      ],
      [
        'an id that is not a number',
        `/api/files/abc/pic.png?exp=${expOf(image.file)}&sig=${sigOf(image.file)}`,
      ],
      ['a PDF without signature', `/api/files/${pdf.id}/doc.pdf`],
    ];
    for (const [what, url] of refused) {
      const token = what.includes('member token') ? ada.token : eve.token;
      const res = await fetchPath(t, url, token);
      expect(res.status, what).toBe(404);
      expect(res.headers.get('content-type') ?? '', what).toContain('application/json');
    }

    // Signed with the real key seven hours ago: past the six hours a URL lives.
    const signer = new UrlSigner(t.ctx.db);
    await signer.init();
    const old = signer.sign(String(image.id), Date.now() - 7 * 3600_000);
    expect(Number(new URLSearchParams(old).get('exp'))).toBeLessThan(Date.now());
    expect((await fetchPath(t, `${bare}?${old}`)).status).toBe(404);
    // The same key signing now is accepted: the refusal above was the expiry alone.
    expect((await fetchPath(t, `${bare}?${signer.sign(String(image.id))}`)).status).toBe(200);
    // A fresh URL lives about six hours (rounded up to the hour).
    const lifetime = Number(expOf(image.file)) - Date.now();
    expect(lifetime).toBeGreaterThan(6 * 3600_000 - 60_000);
    expect(lifetime).toBeLessThanOrEqual(7 * 3600_000);
  });

  it('gives outsiders no way to a URL: history and uploads are 404 for a non-member', async () => {
    const t = app();
    const {
      chatId,
      people: [ada],
    } = await groupOf(t, 'Private files', 'Ada', 'Grace');
    const [eve] = await people(t, 'Eve');
    const [file] = await upload(t, ada.token, chatId, [{ bytes: pdfOf(), filename: 'secret.pdf' }]);
    await t.ctx.messages.send(ada.user.id, chatId, { body: '', file_ids: [file.id] });
    const res = await t.get(`/api/chats/${chatId}/messages/`, eve.token);
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('/api/files/');
    expect((await fetchPath(t, `/api/files/${file.id}/secret.pdf`, eve.token)).status).toBe(404);
  });
});

describe('account deletion', () => {
  it("removes the uploader's stored files (sent or not) and leaves everyone else's", async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace],
    } = await groupOf(t, 'Leavers', 'Ada', 'Grace');
    const [sent, unsent] = await upload(t, grace.token, chatId, [
      { bytes: pngOf(64, 48), filename: 'grace.png' },
      { bytes: pdfOf(), filename: 'draft.pdf' },
    ]);
    await t.ctx.messages.send(grace.user.id, chatId, { body: 'my picture', file_ids: [sent.id] });
    const [adas] = await upload(t, ada.token, chatId, [{ bytes: pdfOf(), filename: 'ada.pdf' }]);
    expect(await mediaFiles(t, 'files')).toHaveLength(4); // Grace's image, its thumbnail, her PDF, Ada's PDF

    expect((await t.deleteAccount(grace.token)).status).toBe(204);

    expect(await mediaFiles(t, 'files')).toHaveLength(1);
    expect((await fileRows(t, chatId)).map((r) => r.id)).toEqual([adas.id]);
    for (const url of [sent.file, sent.thumbnail, unsent.file])
      expect((await fetchPath(t, url)).status).toBe(404);
    expect((await fetchPath(t, adas.file)).status).toBe(200);
    expect((await history(t, ada.token, chatId)).some((m) => m.body === 'my picture')).toBe(false);
  });
});
