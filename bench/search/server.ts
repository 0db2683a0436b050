import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SESSION_TTL_REMEMBER_MS } from '@parley/protocol';
import { hashToken } from '@parley/server';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { freePort, type Managed, probeFlags, startProcess, waitForHttp } from '../lib/proc';
import { parleyEnv, parleyMain } from '../parley/launch';
import { SEARCHER_ID } from './corpus';

// Parley as built (NODE_ENV=production, as bench/parley/launch.ts starts it) against the search corpus: SQLite on
// a copy of the cached file in a temporary DATA_DIR, PostgreSQL on the corpus database. The searcher signs in
// with a session written straight into the database, as the bench's seeding does.
export interface CorpusServer {
  url: string;
  token: string;
  proc: Managed;
  /** The database the server uses: a SQLite file, or a postgres:// URL. */
  database: string;
  stop(): Promise<void>;
}

const sessionRow = (token: string) => {
  const now = Date.now();
  return [
    SEARCHER_ID,
    hashToken(token),
    1,
    new Date(now + SESSION_TTL_REMEMBER_MS).toISOString(),
    new Date(now).toISOString(),
  ];
};
const INSERT_SESSION = 'INSERT INTO sessions (user_id, token_hash, remember, expires_at, created_at)';

export async function startCorpusServer(
  target: { sqliteFile: string } | { postgresUrl: string },
): Promise<CorpusServer> {
  const token = randomBytes(32).toString('base64url').replace(/^t_/, 'x_');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-search-'));
  const env = parleyEnv(dataDir);
  let database: string;
  let forget = async () => {};
  if ('sqliteFile' in target) {
    database = path.join(dataDir, 'parley.db');
    fs.copyFileSync(target.sqliteFile, database);
    const sqlite = new SQLite(database);
    sqlite.prepare(`${INSERT_SESSION} VALUES (?, ?, ?, ?, ?)`).run(...sessionRow(token));
    sqlite.close();
  } else {
    database = target.postgresUrl;
    env.DATABASE_URL = database;
    const client = new pg.Client({ connectionString: database });
    await client.connect();
    await client.query(`${INSERT_SESSION} VALUES ($1, $2, $3, $4, $5)`, sessionRow(token));
    await client.end();
    forget = async () => {
      const c = new pg.Client({ connectionString: database });
      await c.connect();
      await c.query('DELETE FROM sessions WHERE token_hash = $1', [hashToken(token)]);
      await c.end();
    };
  }
  const port = await freePort();
  const proc = startProcess('parley-search', process.execPath, [...probeFlags, parleyMain], {
    ...env,
    PORT: String(port),
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await proc.stop();
    await forget();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHttp(`${url}/api/health`, proc);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, token, proc, database, stop };
}
