import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pdfOf } from '@parley/fixtures';
import { afterAll, describe, expect, it } from 'vitest';
import { historyAfter } from '../helpers/chat-data';
import { runOperatorCli } from '../helpers/operator-cli';
import { isPostgresUrl } from '../helpers/pg-schema';
import { killAll, type ServerProcess, spawnServer } from '../helpers/server-process';
import { createStore, type ServerStore } from '../helpers/server-store';
import type { Json } from '../helpers/test-app';
import type { WsClient } from '../helpers/ws-client';

// Backups: `npm run admin -- backup <dir>` copies a running SQLite server while people write to it
// over their sockets, messages and files alike; `restore <dir>` puts the copy into a new DATA_DIR, and a server
// started there has every message acknowledged before the backup began, with its files, and nothing invented.
// SQLite only: a PostgreSQL server is backed up with pg_dump, which the README names.
const inSqlitePass = !isPostgresUrl(process.env.DATABASE_URL);

interface Acked {
  id: number;
  body: string;
  /** The bytes of the file the message carries, if it carries one. */
  file?: Buffer;
}

async function upload(proc: ServerProcess, token: string, chatId: string, bytes: Buffer, name: string) {
  const form = new FormData();
  form.append('files', new Blob([bytes], { type: 'application/pdf' }), name);
  const res = await fetch(`${proc.baseUrl}/api/chats/${chatId}/attachments/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const body = (await res.json()) as Json;
  if (res.status !== 200) throw new Error(`upload: ${res.status} ${JSON.stringify(body)}`);
  return body.files[0].id as number;
}

/** Sends messages one after another on a room socket until told to stop; each one counts once its echo is back. */
async function keepWriting(
  client: WsClient,
  label: string,
  acked: Acked[],
  running: () => boolean,
  withFile?: (n: number) => Promise<{ fileId: number; bytes: Buffer }>,
) {
  for (let n = 1; running(); n++) {
    const clientId = `${label}-${n}`;
    const body = `${label} message ${n}`;
    const file = withFile ? await withFile(n) : null;
    client.send({
      type: 'chat_message',
      body,
      client_id: clientId,
      ...(file ? { file_ids: [file.fileId] } : {}),
    });
    const echo = await client.next('chat_message', (f) => f.client_id === clientId, 15_000);
    acked.push({ id: echo.message.id, body, ...(file ? { file: file.bytes } : {}) });
  }
}

describe.runIf(inSqlitePass)('npm run admin -- backup <dir> / restore <dir>', () => {
  const dirs: string[] = [];
  let store: ServerStore | null = null;
  afterAll(async () => {
    await killAll();
    await store?.close();
    for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
  });

  it('backs up a server while messages and files are written, and restores every acknowledged one', async () => {
    store = await createStore();
    const env = { MESSAGE_RATE_LIMIT: '100000' };
    const proc = await spawnServer({ store, env, label: 'original' });
    const ada = await proc.signUp({ first_name: 'Ada' });
    const grace = await proc.signUp({ first_name: 'Grace' });
    const chat = await proc.get(`/api/chats/start/${grace.user.username}/`, ada.token);
    expect(chat.status, chat.text).toBe(200);
    const chatId: string = chat.body.chat_id;

    const adaRoom = (await proc.joinRoom(ada.token, chatId, 'ada')).client;
    const graceRoom = (await proc.joinRoom(grace.token, chatId, 'grace')).client;
    const adaFiles = (await proc.joinRoom(ada.token, chatId, 'ada files')).client;
    const acked: Acked[] = [];
    let running = true;
    const writers = Promise.all([
      keepWriting(adaRoom, 'ada', acked, () => running),
      keepWriting(graceRoom, 'grace', acked, () => running),
      keepWriting(
        adaFiles,
        'file',
        acked,
        () => running,
        async (n) => {
          const bytes = pdfOf(`backup file ${n}`);
          return { fileId: await upload(proc, ada.token, chatId, bytes, `file-${n}.pdf`), bytes };
        },
      ),
    ]);
    const until = async (count: number) => {
      while (acked.length < count) await new Promise((r) => setTimeout(r, 20));
    };
    await until(50);

    const backupDir = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-backup-'));
    dirs.push(backupDir);
    // Everything acknowledged up to this line must be in the backup; writing goes on while it is taken.
    const ackedBefore = acked.slice();
    const backup = await runOperatorCli({ DATA_DIR: store.dataDir }, 'backup', backupDir);
    const ackedDuring = acked.length - ackedBefore.length;
    await until(acked.length + 20);
    running = false;
    await writers;
    expect(backup.code, backup.stderr + backup.stdout).toBe(0);
    expect(ackedDuring).toBeGreaterThan(0);
    const manifest = JSON.parse(await fs.readFile(path.join(backupDir, 'backup.json'), 'utf8'));
    expect(manifest.missing_files).toEqual([]);

    // A second backup into the same directory is refused; so is a restore onto the running server.
    const [twice, onLive] = await Promise.all([
      runOperatorCli({ DATA_DIR: store.dataDir }, 'backup', backupDir),
      runOperatorCli({ DATA_DIR: store.dataDir }, 'restore', backupDir),
    ]);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('is not empty');
    expect(onLive.code).toBe(1);
    expect(onLive.stderr).toContain('is in use');

    const restoredDir = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-restored-'));
    dirs.push(restoredDir);
    const restored = await runOperatorCli({ DATA_DIR: restoredDir }, 'restore', backupDir);
    expect(restored.code, restored.stderr + restored.stdout).toBe(0);

    const copy = await spawnServer({ store, env, dataDir: restoredDir, label: 'restored' });
    const history = await historyAfter(copy, grace.token, chatId, 0);
    const byId = new Map(history.map((m) => [m.id as number, m]));
    for (const m of ackedBefore) expect(byId.get(m.id)?.body, `message ${m.id}`).toBe(m.body);
    // Nothing that was not written; what was written during the backup is there or not, never half.
    const ackedIds = new Map(acked.map((m) => [m.id, m]));
    for (const m of history) expect(ackedIds.get(m.id)?.body).toBe(m.body);

    // Every file the restored history names is there, byte for byte (those acknowledged before, and any later
    // one the snapshot caught).
    const withFiles = history.filter((m) => m.files.length > 0);
    expect(withFiles.length).toBeGreaterThanOrEqual(ackedBefore.filter((m) => m.file).length);
    expect(ackedBefore.some((m) => m.file)).toBe(true);
    for (const m of withFiles) {
      const res = await fetch(`${copy.baseUrl}${m.files[0].file}`);
      expect(res.status, `file of message ${m.id}`).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(ackedIds.get(m.id)?.file as Buffer)).toBe(true);
    }
    await Promise.all([adaRoom, graceRoom, adaFiles].map((c) => c.close()));
  }, 180_000);
});
