import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pdfOf } from '@parley/fixtures';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_FULL } from '../../src/platform/errors';
import { type Person, seedPeople } from '../../src/test-support/seed-people';
import { messageWith, say } from '../chats/chat-helpers';
import { historyAfter, seedGroup, storedMessages } from '../helpers/chat-data';
import { isPostgresUrl } from '../helpers/pg-schema';
import { killAll, type ServerProcess, spawnServer } from '../helpers/server-process';
import { createStore, type ServerStore } from '../helpers/server-store';
import { streamUpload } from '../helpers/streamed-upload';
import type { Json } from '../helpers/test-app';
import { until } from '../helpers/waits';
import type { Frame, WsClient } from '../helpers/ws-client';

// The data disk fills up under a running Parley process on SQLite: DATA_DIR is a small tmpfs of its own, and a
// filler file takes every byte left, the database's pages left as they are. Sends and uploads are refused with
// the storage sentence (an error frame on the socket, 507 over HTTP) and one warning, nothing half-stored;
// reads keep working and the socket stays open, and a socket closed meanwhile (its last seen unwritten) logs no
// error. Once the filler is gone the database passes its integrity check, the refused message resent with its
// client_id is stored once and delivered, and uploads work again, without a restart.

/** The tmpfs: room for the database, its WAL and an upload, small enough to fill in a moment. */
const TMPFS_SIZE = '8m';
/** Sends tried on the full disk before giving up on a refusal (WAL slack lets a few through). */
const MAX_SENDS_WHILE_FULL = 200;
const WAIT = 10_000;

/** Why this test cannot run here (null: it can): SQLite only, and mounting a tmpfs needs root. */
function whyNotHere(): string | null {
  if (isPostgresUrl(process.env.DATABASE_URL)) return 'the full disk is tested on SQLite only';
  if (process.platform !== 'linux') return 'a tmpfs needs Linux';
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root';
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-tmpfs-probe-'));
  try {
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], {
      encoding: 'utf8',
    });
    if (mounted.status !== 0)
      return `mount -t tmpfs is not allowed: ${(mounted.stderr || mounted.error?.message) ?? ''}`;
    const unmounted = spawnSync('umount', [probe], { encoding: 'utf8' });
    if (unmounted.status !== 0) return `umount of a tmpfs failed: ${unmounted.stderr}`;
    return null;
  } finally {
    fs.rmSync(probe, { recursive: true, force: true });
  }
}

const notHere = whyNotHere();

function run(command: string, args: string[]): void {
  const done = spawnSync(command, args, { encoding: 'utf8' });
  if (done.status !== 0)
    throw new Error(`${command} ${args.join(' ')}: ${done.stderr || done.error?.message}`);
}

/** Writes `file` until the disk refuses even one more byte (ENOSPC); the bytes written. */
function fillDisk(file: string): number {
  const fd = fs.openSync(file, 'w');
  const chunk = Buffer.alloc(1024 * 1024, 0x5a);
  let size = chunk.length;
  let written = 0;
  try {
    while (size > 0) {
      try {
        written += fs.writeSync(fd, chunk, 0, size);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
        size = Math.floor(size / 2);
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return written;
}

/** The error frame or the echo that answers the chat_message with `clientId`, whichever comes first. */
async function answerTo(client: WsClient, clientId: string): Promise<Frame> {
  const answers = () =>
    client.frames.filter(
      (f) => f.client_id === clientId && (f.type === 'chat_message' || f.type === 'error'),
    );
  await until(() => answers().length > 0, `an answer to ${clientId}`, WAIT);
  return answers()[0] as Frame;
}

/** The names in a directory, none when it does not exist. */
const namesIn = (dir: string): string[] => (fs.existsSync(dir) ? fs.readdirSync(dir) : []);

/** The process's warnings so far that name the full disk. */
function diskFullWarnings(proc: ServerProcess): Json[] {
  const entries: Json[] = [];
  for (const line of proc.output().split('\n')) {
    if (!line.includes('disk is full')) continue;
    try {
      const entry = JSON.parse(line);
      if (entry.level === 40) entries.push(entry);
    } catch {
      // The head of a line cut off by the output's window.
    }
  }
  return entries;
}

describe.skipIf(notHere !== null)(
  `a full data disk (SQLite)${notHere ? `: skipped, ${notHere}` : ''}`,
  () => {
    let mountDir = '';
    let mounted = false;
    let store: ServerStore | null = null;

    beforeAll(async () => {
      mountDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'parley-disk-full-'));
      run('mount', ['-t', 'tmpfs', '-o', `size=${TMPFS_SIZE}`, 'tmpfs', mountDir]);
      mounted = true;
      store = await createStore({ dataDir: path.join(mountDir, 'data') });
    });

    afterAll(async () => {
      await killAll();
      await store?.close();
      if (mounted) run('umount', [mountDir]);
      if (mountDir) await fsp.rmdir(mountDir);
    });

    it('refuses sends and uploads plainly, stays readable and whole, and works again when space returns', async () => {
      const { db, dataDir } = store as ServerStore;
      // Every send of the loop below is answered, however many the WAL lets through.
      const proc = await spawnServer({ store: store as ServerStore, env: { MESSAGE_RATE_LIMIT: '10000' } });
      const [ada, grace, linus] = (await seedPeople(db, 3, 'disk')) as [Person, Person, Person];
      const chatId = await seedGroup(proc, db, ada, [grace], 'Full disk');
      const adaRoom: WsClient = (await proc.joinRoom(ada.token, chatId, 'ada')).client;
      const graceRoom: WsClient = (await proc.joinRoom(grace.token, chatId, 'grace')).client;
      // Linus's only socket, opened while a ticket can still be stored, closes while the disk is full.
      const linusSocket: WsClient = (await proc.openNotifications(linus.token, 'linus')).client;
      const before = await say(adaRoom, 'before the disk fills');
      await messageWith(graceRoom, 'before the disk fills');

      const filler = path.join(mountDir, 'filler');
      expect(fillDisk(filler)).toBeGreaterThan(0);
      expect(fs.statfsSync(mountDir).bavail).toBe(0);

      // An upload is refused with 507 and the storage sentence, logged once, and leaves no temp file behind.
      const pdf = pdfOf('full');
      const upload = () =>
        streamUpload({
          baseUrl: proc.baseUrl,
          path: `/api/chats/${chatId}/attachments/`,
          token: ada.token,
          files: [{ filename: 'full.pdf', head: pdf, size: pdf.length }],
        });
      const refusedUpload = await upload();
      expect(refusedUpload).toEqual({ status: 507, text: JSON.stringify({ detail: STORAGE_FULL }) });
      await until(() => diskFullWarnings(proc).length > 0, 'the full disk in the log', WAIT);
      expect(namesIn(path.join(dataDir, 'tmp', 'uploads'))).toEqual([]);
      expect(namesIn(path.join(dataDir, 'media', 'files'))).toEqual([]);

      // Sends until one is refused: the WAL's last page may take a few more. Each is answered before the next.
      const acknowledged = new Map<string, number>();
      let refused: Frame | null = null;
      let refusedClientId = '';
      for (let i = 1; i <= MAX_SENDS_WHILE_FULL && !refused; i++) {
        const clientId = `full-${i}`;
        adaRoom.send({ type: 'chat_message', body: `while full ${i}`, client_id: clientId });
        const answer = await answerTo(adaRoom, clientId);
        if (answer.type === 'error') {
          refused = answer;
          refusedClientId = clientId;
        } else acknowledged.set(clientId, answer.message.id);
      }
      expect(refused, `no refusal in ${MAX_SENDS_WHILE_FULL} sends on a full disk`).not.toBeNull();
      expect(refused).toEqual({ type: 'error', message: STORAGE_FULL, client_id: refusedClientId });
      const refusedBody = `while full ${refusedClientId.slice('full-'.length)}`;

      // The next send is refused the same way, and the socket still relays what needs no write.
      adaRoom.send({ type: 'chat_message', body: 'still full', client_id: 'still-full' });
      expect(await answerTo(adaRoom, 'still-full')).toEqual({
        type: 'error',
        message: STORAGE_FULL,
        client_id: 'still-full',
      });
      expect(adaRoom.isOpen).toBe(true);
      // A person's last socket closing writes their last seen, which the full disk refuses: no error logged
      // (checked below, after the round trips that follow).
      await linusSocket.close();
      adaRoom.send({ type: 'typing', is_typing: true });
      expect(await graceRoom.next('typing', (f) => f.user_id === ada.id, WAIT)).toMatchObject({
        is_typing: true,
      });

      // Reads work: the history holds what was acknowledged, and nothing of what was refused.
      const seen = await historyAfter(proc, grace.token, chatId, 0);
      expect(seen.filter((m) => m.kind === 'user').map((m) => m.id)).toEqual([
        before.id,
        ...acknowledged.values(),
      ]);
      expect((await proc.get('/api/chats/my/', grace.token)).status).toBe(200);

      // One warning for every refusal of the last minute, and nothing logged as an error.
      expect(diskFullWarnings(proc)).toHaveLength(1);
      expect(proc.errors).toEqual([]);

      // Space returns.
      await fsp.rm(filler);

      // The database is whole and no transaction was left open: the refused message resent once is stored
      // once and delivered, and the upload works.
      const integrity = await sql<{ integrity_check: string }>`PRAGMA integrity_check`.execute(db);
      expect(integrity.rows).toEqual([{ integrity_check: 'ok' }]);
      const resent = await say(adaRoom, refusedBody, refusedClientId);
      expect((await messageWith(graceRoom, refusedBody)).message.id).toBe(resent.id);
      const stored = await storedMessages(db, chatId);
      expect(stored.filter((m) => m.client_id === refusedClientId)).toEqual([
        expect.objectContaining({ id: resent.id, body: refusedBody }),
      ]);
      expect(stored.some((m) => m.client_id === 'still-full')).toBe(false);
      // Every acknowledged send is stored once and reached Grace.
      for (const [clientId, id] of acknowledged) {
        expect(stored.filter((m) => m.client_id === clientId).map((m) => m.id)).toEqual([id]);
        expect(graceRoom.received('chat_message', (f) => f.message.id === id)).toHaveLength(1);
      }

      const accepted = await upload();
      if (accepted === 'cut') throw new Error('the upload was cut');
      expect(accepted.status, accepted.text).toBe(200);
      expect(JSON.parse(accepted.text).files).toEqual([
        expect.objectContaining({ type: 'pdf', name: 'full.pdf' }),
      ]);
      expect(namesIn(path.join(dataDir, 'tmp', 'uploads'))).toEqual([]);
      expect(proc.errors).toEqual([]);
    }, 120_000);
  },
);
