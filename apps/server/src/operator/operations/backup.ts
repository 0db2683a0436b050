import fs from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { migrationsOf, quickCheck, referencedKeys, snapshotInto } from './backup.repo';
import { copyNewFiles, exists } from './file-tree';
import { openExclusive } from './sqlite-file';

// `npm run admin -- backup <dir>` and `restore <dir>` for a SQLite server.
//
// A backup is taken while the server runs: the stored files are copied first, then the database is snapshotted
// in one read transaction (VACUUM INTO: everything committed before it, nothing after), then the files stored
// meanwhile are copied too. Files are never changed once stored, so every file the snapshot refers to is in the
// copy unless it was deleted before it could be copied (listed in the manifest). The manifest, written last,
// marks a finished backup. The directory is itself a DATA_DIR: `DATA_DIR=<dir> npm start` would serve it.

export const MANIFEST = 'backup.json';
const DATABASE = 'parley.db';
const MEDIA = 'media';
const VAPID = 'vapid.json';

export interface Manifest {
  format: 'parley-backup';
  version: 1;
  /** When the snapshot began: every message committed before is in it. */
  created_at: string;
  migrations: string[];
  files: number;
  bytes: number;
  /** Files the snapshot refers to that were gone from the server before they could be copied. */
  missing_files: string[];
  vapid_keys: boolean;
}

export interface ServerFiles {
  /** The server's DATA_DIR (VAPID keys). */
  dataDir: string;
  /** Its SQLite database file. */
  databaseFile: string;
  /** Its stored files' directory, or null when they live elsewhere (an object store). */
  mediaDir: string | null;
}

export class RefusedError extends Error {}

export async function backup(
  server: ServerFiles,
  dir: string,
  say: (line: string) => void,
): Promise<Manifest> {
  const target = path.resolve(dir);
  if ((await exists(target)) && (await fs.readdir(target)).length > 0) {
    throw new RefusedError(`${target} is not empty: give each backup a new directory.`);
  }
  if (!(await exists(server.databaseFile))) {
    throw new RefusedError(`No SQLite database at ${server.databaseFile} (set DATA_DIR to the server's).`);
  }
  await fs.mkdir(target, { recursive: true });

  const media = path.join(target, MEDIA);
  if (server.mediaDir) await copyNewFiles(server.mediaDir, media);

  const createdAt = new Date().toISOString();
  const live = new SQLite(server.databaseFile, { fileMustExist: true });
  let migrations: string[];
  try {
    live.pragma('busy_timeout = 30000');
    const partial = path.join(target, `${DATABASE}.partial`);
    snapshotInto(live, partial);
    await fs.rename(partial, path.join(target, DATABASE));
  } finally {
    live.close();
  }
  say(`Database snapshot taken (${createdAt}).`);

  const snapshot = new SQLite(path.join(target, DATABASE), { readonly: true });
  let keys: string[];
  try {
    migrations = migrationsOf(snapshot);
    keys = referencedKeys(snapshot);
  } finally {
    snapshot.close();
  }
  const missing: string[] = [];
  if (server.mediaDir) {
    await copyNewFiles(server.mediaDir, media);
    for (const key of keys) if (!(await exists(path.join(media, ...key.split('/'))))) missing.push(key);
  }
  const hasVapid = await exists(path.join(server.dataDir, VAPID));
  if (hasVapid) await fs.copyFile(path.join(server.dataDir, VAPID), path.join(target, VAPID));

  const counted = await countTree(media);
  const manifest: Manifest = {
    format: 'parley-backup',
    version: 1,
    created_at: createdAt,
    migrations,
    files: counted.files,
    bytes: counted.bytes,
    missing_files: missing,
    vapid_keys: hasVapid,
  };
  await fs.writeFile(path.join(target, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

async function countTree(dir: string): Promise<{ files: number; bytes: number }> {
  const out = { files: 0, bytes: 0 };
  if (!(await exists(dir))) return out;
  for (const entry of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    out.files += 1;
    out.bytes += (await fs.stat(path.join(entry.parentPath, entry.name))).size;
  }
  return out;
}

export async function readManifest(dir: string): Promise<Manifest> {
  let parsed: Partial<Manifest>;
  try {
    parsed = JSON.parse(await fs.readFile(path.join(dir, MANIFEST), 'utf8'));
  } catch {
    throw new RefusedError(`${dir} holds no finished Parley backup (no readable ${MANIFEST}).`);
  }
  if (parsed.format !== 'parley-backup' || parsed.version !== 1) {
    throw new RefusedError(`${path.join(dir, MANIFEST)} is not a Parley backup manifest this version reads.`);
  }
  return parsed as Manifest;
}

export interface RestoreReport {
  manifest: Manifest;
  /** What was in the way, renamed beside it (nothing is deleted). */
  setAside: string[];
}

/**
 * Puts a backup into a stopped server's DATA_DIR. What the server had there (database, files, VAPID keys) is
 * renamed aside with a `.before-restore-<time>` suffix, not deleted. Refused while a server has the database open.
 */
export async function restore(server: ServerFiles, dir: string): Promise<RestoreReport> {
  const source = path.resolve(dir);
  const manifest = await readManifest(source);
  const backupDb = path.join(source, DATABASE);
  const check = new SQLite(backupDb, { readonly: true, fileMustExist: true });
  try {
    const result = quickCheck(check);
    if (result !== 'ok') throw new RefusedError(`${backupDb} is damaged: ${result}`);
  } finally {
    check.close();
  }

  if (await exists(server.databaseFile)) {
    // Refused while a server has it open; otherwise its write-ahead log is folded in and removed, so what is set
    // aside below is one whole file.
    const current = openExclusive(server.databaseFile);
    try {
      current.pragma('journal_mode = DELETE');
    } finally {
      current.close();
    }
  }
  await fs.mkdir(path.dirname(server.databaseFile), { recursive: true });
  await fs.mkdir(server.dataDir, { recursive: true });

  // Everything is staged beside its place first, then renamed in: a failure while copying leaves the server's
  // own files untouched.
  const staged: [from: string, to: string][] = [];
  const stage = `.restoring-${process.pid}`;
  await fs.copyFile(backupDb, `${server.databaseFile}${stage}`);
  staged.push([`${server.databaseFile}${stage}`, server.databaseFile]);
  if (server.mediaDir) {
    await fs.rm(`${server.mediaDir}${stage}`, { recursive: true, force: true });
    await copyNewFiles(path.join(source, MEDIA), `${server.mediaDir}${stage}`);
    await fs.mkdir(`${server.mediaDir}${stage}`, { recursive: true });
    staged.push([`${server.mediaDir}${stage}`, server.mediaDir]);
  }
  const vapid = path.join(server.dataDir, VAPID);
  if (manifest.vapid_keys) {
    await fs.copyFile(path.join(source, VAPID), `${vapid}${stage}`);
    staged.push([`${vapid}${stage}`, vapid]);
  }

  const suffix = `.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  const setAside: string[] = [];
  const inTheWay = [
    ...staged.map(([, to]) => to),
    `${server.databaseFile}-wal`,
    `${server.databaseFile}-shm`,
  ];
  for (const file of inTheWay) {
    if (!(await exists(file))) continue;
    await fs.rename(file, `${file}${suffix}`);
    setAside.push(`${file}${suffix}`);
  }
  for (const [from, to] of staged) await fs.rename(from, to);
  return { manifest, setAside };
}
