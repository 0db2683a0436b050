import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type APIRequestContext, expect, type PlaywrightWorkerArgs } from '@playwright/test';

// A Parley server process of a test's own, which it can stop and start again (a crash, a restart, an outage)
// without touching the suite's server (playwright.config.ts).

/** A port free on 127.0.0.1 now, for a server of the test's own. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The environment of a Parley server for the journeys, on `port` with its data in `dataDir`: the suite's own
 * (playwright.config.ts) and a test's own (startServer) alike.
 */
export function serverEnv(port: number, dataDir: string): Record<string, string> {
  return {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    NODE_ENV: 'test',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'warn',
    // Every journey signs people up from 127.0.0.1; the per-address limit is tested in the server suite.
    SIGNUPS_PER_IP_HOUR: '1000',
    // Link previews of pages a journey serves on this machine.
    PREVIEW_ALLOW_PRIVATE_HOSTS: 'true',
    // Bots' events and commands sent to servers a journey runs on this machine.
    EVENTS_ALLOW_PRIVATE_HOSTS: 'true',
    // SQLite, in-process fan-out and the dev outbox, whatever the calling shell has set.
    DATABASE_URL: '',
    REDIS_URL: '',
    SMTP_URL: '',
    // A build of its own (vite build --outDir …), so another person's rebuild cannot swap files mid-run.
    WEB_DIST: process.env.PARLEY_E2E_WEB_DIST ?? '',
  };
}

/**
 * The built server (apps/server/dist) on `port`, keeping its data in `dataDir`, which outlives it; `env` sets
 * more of its environment (an SMTP server that is away, say).
 */
export function startServer(port: number, dataDir: string, env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [fileURLToPath(new URL('../../../server/dist/main.js', import.meta.url))], {
    env: { ...process.env, ...serverEnv(port, dataDir), ...env },
    stdio: 'ignore',
  });
}

/** Waits until the server `request` points at answers its health check. */
export async function untilHealthy(request: APIRequestContext) {
  await expect
    .poll(async () => (await request.get('/api/health').catch(() => null))?.ok() ?? false, {
      timeout: 60_000,
    })
    .toBe(true);
}

/**
 * Runs `run` against a fresh Parley of its own (an empty database in a new directory named after `name`, `env`
 * added to its environment), with a request context on it; the server is stopped however `run` ends.
 */
export async function onOwnServer<T>(
  playwright: PlaywrightWorkerArgs['playwright'],
  name: string,
  run: (server: { baseURL: string; request: APIRequestContext }) => Promise<T>,
  env: Record<string, string> = {},
): Promise<T> {
  const port = await freePort();
  const server = startServer(port, mkdtempSync(path.join(tmpdir(), `parley-${name}-`)), env);
  const baseURL = `http://127.0.0.1:${port}`;
  const request = await playwright.request.newContext({ baseURL });
  try {
    await untilHealthy(request);
    return await run({ baseURL, request });
  } finally {
    await request.dispose();
    server.kill('SIGTERM');
  }
}
