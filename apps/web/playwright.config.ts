import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunch } from './e2e/support/chromium';
import { serverEnv } from './e2e/support/server-process';

// End-to-end journeys against the production build: the server serves apps/web/dist, a fresh SQLite database
// in a temporary DATA_DIR and the dev outbox, where the tests read the mailed codes.
// PARLEY_E2E_PORT lets two runs share a machine (several people working in one checkout).
const PORT = Number(process.env.PARLEY_E2E_PORT ?? 8123);
const BASE_URL = `http://127.0.0.1:${PORT}`;
// Workers load this file again; the environment carries the one directory the runner made.
process.env.PARLEY_E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'parley-e2e-'));
const dataDir = process.env.PARLEY_E2E_DATA_DIR;
const ci = Boolean(process.env.CI);

export default defineConfig({
  testDir: 'e2e',
  // Every test makes its own people, so the tests of one file run side by side as well; a group that shares a
  // world (a11y's and the admin console's screens) is a describe of its own, taken in order by one worker. The
  // tests mostly wait on the server and the browser: two workers keep both of CI's two cores busy.
  fullyParallel: true,
  workers: 2,
  retries: ci ? 1 : 0,
  forbidOnly: ci,
  // Ceilings, not durations: a state that takes 10 s to show on a 2-core machine running two browsers, the
  // server and a build is still the right state. A passing test waits only as long as it needs.
  timeout: 180_000,
  expect: { timeout: 20_000 },
  reporter: ci ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
    baseURL: BASE_URL,
    // The journeys read English (SPEC's wording) whatever the machine's language; i18n.spec.ts sets its own.
    locale: 'en-US',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: chromiumLaunch(),
      },
    },
  ],
  webServer: {
    command: 'node ../server/dist/main.js',
    url: `${BASE_URL}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: serverEnv(PORT, dataDir),
  },
});
