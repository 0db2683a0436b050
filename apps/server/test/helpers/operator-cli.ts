import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { withSearchPath } from './server-store';
import type { TestApp } from './test-app';

// The operator commands as an operator runs them (`npm run admin -- …`): a process of their own, configured only
// through the environment given, with their exit code and output. And a PostgreSQL database of a test's own.

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tsx = path.resolve(serverDir, '../../node_modules/.bin/tsx');

export interface AdminRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function runOperatorCli(env: Record<string, string>, ...args: string[]): Promise<AdminRun> {
  return new Promise((resolve) => {
    execFile(
      tsx,
      ['src/operator/main.ts', ...args],
      {
        cwd: serverDir,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          NODE_ENV: 'test',
          LOG_LEVEL: 'silent',
          ...env,
        },
        timeout: 120_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** The environment that points a command at a test app's data: its DATA_DIR and, on PostgreSQL, its own schema. */
export function operatorEnvOf(t: TestApp): Record<string, string> {
  const { databaseSchema: schema, databaseUrl: url } = t.ctx.config;
  return { DATA_DIR: t.dataDir, ...(schema && url ? { DATABASE_URL: withSearchPath(url, schema) } : {}) };
}

/** The PostgreSQL server the tests use: the suite's DATABASE_URL when it names one, else the local one. */
export const postgresServerUrl = (): string =>
  /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '')
    ? (process.env.DATABASE_URL as string)
    : 'postgres://postgres@127.0.0.1:5432/test';

/** A new, empty database on that server; `drop` removes it (closing whatever is still connected). */
export async function createDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const server = postgresServerUrl();
  const name = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: server });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  url.search = '';
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
