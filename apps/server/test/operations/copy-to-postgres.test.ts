import { pdfOf, pngOf } from '@parley/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchPath, uploadFiles } from '../attachments/attachment-helpers';
import { addMember, createGroup, newClientId, people, startChat } from '../chats/chat-helpers';
import { createDatabase, runOperatorCli } from '../helpers/operator-cli';
import { dropOwnedSchemas, isPostgresUrl } from '../helpers/pg-schema';
import { FakeBrowser, type PushEndpoint, startPushEndpoint } from '../helpers/push-endpoint';
import { type Json, startTestApp, type TestApp } from '../helpers/test-app';
import { eventually, joinRoom } from '../helpers/ws-client';
import {
  deleteMessage,
  editMessage,
  editsOf,
  expectStatus,
  react,
  send,
} from '../messages/essentials-helpers';

// Growing out of SQLite: `npm run admin -- copy-to-postgres <url>` takes a laptop's stopped SQLite
// server, with people, sessions, chats, a group, messages with edits, reactions, replies and a deletion, read
// marks, attachments and a push subscription, into an empty PostgreSQL database of this test's own; Parley
// started on that database with the same DATA_DIR serves the same people on their same session tokens, the same
// history and files, finds old messages by search, gives new rows fresh ids, and pushes to the old subscription.
//
// It copies SQLite into PostgreSQL whatever the suite's pass, so it runs once, in the SQLite pass of `npm test`
// (PostgreSQL at 127.0.0.1:5432, as `npm test` machines have it).
const inSqlitePass = !isPostgresUrl(process.env.DATABASE_URL);

/** A person's whole view of a chat's history, oldest first, through the API (100 a page). */
async function fullHistory(t: TestApp, token: string, chatId: string): Promise<Json[]> {
  const out: Json[] = [];
  let after = 0;
  for (;;) {
    const res = await t.get(`/api/chats/${chatId}/messages/?after=${after}&limit=100`, token);
    expect(res.status, res.text).toBe(200);
    out.push(...res.body);
    if (res.body.length < 100) return out;
    after = res.body[res.body.length - 1].id;
  }
}

/**
 * What must survive the move, without what legitimately differs between two runs of the same data: signed file
 * URLs carry their expiry, and presence (online, typing) is about who is connected now.
 */
function stable(value: Json): Json {
  return JSON.parse(JSON.stringify(value), (key, v) => {
    if (['is_online', 'online', 'last_seen', 'typing'].includes(key)) return undefined;
    if (typeof v === 'string' && v.startsWith('/api/files/')) return v.split('?')[0];
    return v;
  });
}

interface Snapshot {
  profiles: Json[];
  chatLists: Json[];
  pairHistory: Json[];
  groupHistory: Json[];
  edits: Json;
}

describe.runIf(inSqlitePass)('npm run admin -- copy-to-postgres <url>', () => {
  let push: PushEndpoint;
  beforeAll(async () => {
    push = await startPushEndpoint();
  });
  afterAll(async () => {
    await push?.close();
  });

  it('moves a SQLite server to PostgreSQL without losing a message, a file or a session', async () => {
    const target = await createDatabase('parley_copy');
    const src = await startTestApp({
      env: { DATABASE_URL: undefined, PUSH_ALLOW_PRIVATE_ENDPOINTS: 'true' },
    });
    let dst: TestApp | null = null;
    try {
      // A laptop's worth of everything, made through the app.
      const [ada, grace, alan] = await people(src, 'Ada', 'Grace', 'Alan');
      const graceLogin = await src.login(grace.payload.email, grace.payload.password, true);
      expect(graceLogin.status, graceLogin.text).toBe(200);
      const graceSecondToken: string = graceLogin.body.token;

      const pair = await startChat(src, ada.token, grace.user.username);
      const group = await createGroup(src, ada.token, 'Lighthouse keepers');
      await addMember(src, group, grace.user.id);
      await addMember(src, group, alan.user.id);

      const adaPair = await joinRoom(src, ada.token, pair);
      const gracePair = await joinRoom(src, grace.token, pair);
      const first = await send(adaPair, 'Héllo Grace, the lighthouse keeper is coming');
      const reply = await send(gracePair, 'Wonderful, see you at the harbour', first.id);
      expect(reply.reply_to).toMatchObject({ id: first.id });
      expectStatus(
        await editMessage(src, ada.token, pair, first.id, 'Héllo Grace, the lighthouse keeper arrived'),
        200,
      );
      expectStatus(await react(src, grace.token, pair, first.id, '👍'), 200);
      expectStatus(await react(src, ada.token, pair, reply.id, '❤️'), 200);
      const doomed = await send(adaPair, 'a message deleted for everyone');
      expectStatus(await deleteMessage(src, ada.token, pair, doomed.id), 204);
      gracePair.send({ type: 'read_messages', message_ids: [first.id] });
      await eventually(async () => {
        const row = await src.ctx.db
          .selectFrom('chat_members')
          .select('last_read_id')
          .where('user_id', '=', grace.user.id)
          .where('last_read_id', '>=', first.id)
          .executeTakeFirst();
        return row ?? undefined;
      }, "Grace's read mark");

      // Files in the group, and enough messages that tables are copied in more than one batch.
      const png = pngOf(64, 48);
      const pdf = pdfOf('Harbour timetable');
      const uploaded = await uploadFiles(src, ada.token, group, [
        { bytes: png, filename: 'harbour.png' },
        { bytes: pdf, filename: 'timetable.pdf' },
      ]);
      expect(uploaded.status, uploaded.text).toBe(200);
      const adaGroup = await joinRoom(src, ada.token, group);
      const clientId = newClientId('files');
      adaGroup.send({
        type: 'chat_message',
        body: 'the harbour and its timetable',
        client_id: clientId,
        file_ids: uploaded.body.files.map((f: Json) => f.id),
      });
      await adaGroup.next('chat_message', (f) => f.client_id === clientId);
      for (let i = 0; i < 1100; i++)
        await src.ctx.messages.send(alan.user.id, group, { body: `log entry ${i}` });

      const browser = new FakeBrowser(push.url(`/push/grace-${grace.user.id}`));
      expect((await src.post('/api/push/subscriptions/', browser.subscription, grace.token)).status).toBe(
        201,
      );
      await Promise.all([adaPair, gracePair, adaGroup].map((c) => c.close()));

      const everyone = [ada, grace, alan];
      const snapshot = async (t: TestApp): Promise<Snapshot> => ({
        profiles: await Promise.all(
          everyone.map(async (p) => (await t.get('/api/users/profile/', p.token)).body),
        ),
        chatLists: await Promise.all(
          everyone.map(async (p) => (await t.get('/api/chats/my/', p.token)).body),
        ),
        pairHistory: await fullHistory(t, grace.token, pair),
        groupHistory: await fullHistory(t, alan.token, group),
        edits: (await editsOf(t, ada.token, pair, first.id)).body,
      });
      const before = stable(await snapshot(src));
      expect(before.groupHistory.length).toBeGreaterThan(1100);
      // What is compared holds what was made: an edit, reactions, a reply, a deletion, files, read marks.
      expect(before.edits.length).toBeGreaterThan(0);
      expect(before.pairHistory.map((m: Json) => m.reactions?.length ?? 0)).toContain(1);
      expect(before.pairHistory.find((m: Json) => m.id === reply.id).reply_to).toMatchObject({
        id: first.id,
      });
      expect(before.pairHistory.find((m: Json) => m.id === doomed.id)?.body ?? '').not.toContain(
        'deleted for',
      );
      expect(before.groupHistory.some((m: Json) => m.files?.length === 2)).toBe(true);
      const lastId = Math.max(...before.groupHistory.map((m: Json) => m.id));

      // A running server's database is not copied.
      const env = { DATA_DIR: src.dataDir };
      const busy = await runOperatorCli(env, 'copy-to-postgres', target.url);
      expect(busy.code, busy.stderr).toBe(1);
      expect(busy.stderr).toContain('is in use');

      await src.server.stop();
      const copy = await runOperatorCli(env, 'copy-to-postgres', target.url);
      expect(copy.code, copy.stderr + copy.stdout).toBe(0);
      expect(copy.stdout).toContain("every table's row count matches");
      expect(copy.stderr).toMatch(/messages\s+1,1\d\d rows/);

      // A second copy into the same database is refused and changes nothing.
      const again = await runOperatorCli(env, 'copy-to-postgres', target.url);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('already holds data');

      // Parley on PostgreSQL, same DATA_DIR (files, Web Push keys): the same people, on the same tokens.
      dst = await startTestApp({
        env: { DATABASE_URL: target.url, DATA_DIR: src.dataDir, PUSH_ALLOW_PRIVATE_ENDPOINTS: 'true' },
        config: { databaseSchema: 'public', dataDir: src.dataDir },
      });
      const after = stable(await snapshot(dst));
      expect(after).toEqual(before);
      expect((await dst.get('/api/users/profile/', graceSecondToken)).status).toBe(200);

      // The files the history names are served, byte for byte.
      const withFiles = after.groupHistory.find((m: Json) => m.files?.length === 2);
      const served = (await fullHistory(dst, alan.token, group)).find((m: Json) => m.id === withFiles.id);
      for (const [name, bytes] of [
        ['harbour.png', png],
        ['timetable.pdf', pdf],
      ] as const) {
        const file = served.files.find((f: Json) => f.name === name);
        const fetched = await fetchPath(dst, file.file);
        expect(fetched.status, `${name}: ${fetched.bytes.toString().slice(0, 200)}`).toBe(200);
        expect(fetched.bytes.equals(bytes), name).toBe(true);
      }

      // Search finds what was written before the move (accents and case aside).
      const found = await dst.get('/api/search/messages/?q=hello%20lighthouse', grace.token);
      expect(found.status, found.text).toBe(200);
      expect(found.body.results.map((r: Json) => r.message.id)).toContain(first.id);

      // New rows get fresh ids: a message, a reaction, a person, a group.
      const adaRoom = await joinRoom(dst, ada.token, pair);
      const fresh = await send(adaRoom, 'written on PostgreSQL');
      expect(fresh.id).toBeGreaterThan(lastId);
      expectStatus(await react(dst, grace.token, pair, fresh.id, '🎉'), 200);
      const newcomer = await dst.signUpAndVerify({ first_name: 'Newcomer' });
      expect(newcomer.user.id).toBeGreaterThan(Math.max(...everyone.map((p) => p.user.id)));
      await createGroup(dst, newcomer.token, 'After the move');

      // Grace, away from the room, is pushed to the browser she subscribed on SQLite.
      const pushPath = `/push/grace-${grace.user.id}`;
      const pushedBefore = push.to(pushPath).length;
      await send(adaRoom, 'a push after the move');
      const pushed = await push.waitFor(pushPath, pushedBefore + 1, 10_000);
      expect(browser.decrypt(pushed.body)).toContain('a push after the move');
      await adaRoom.close();
    } finally {
      await dst?.close().catch(() => {});
      await src.close().catch(() => {});
      await dropOwnedSchemas(target.url).catch(() => {});
      await target.drop();
    }
  }, 240_000);
});
