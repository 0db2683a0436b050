import type { LaunchOptions } from '@playwright/test';

/**
 * How the journeys start Chromium: Debian's (`CHROMIUM_PATH` overrides; never a downloaded one) with the switches
 * every journey needs; a file that needs more (a fake microphone) passes them as `extra` to its `test.use`.
 */
export const chromiumLaunch = (extra: string[] = []): LaunchOptions => ({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    ...extra,
  ],
});
