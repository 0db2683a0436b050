import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MSG } from '@parley/protocol';
import { expect, test } from '@playwright/test';
import { newAccount, signUpOnScreen } from './support/accounts';
import { seriousFindings } from './support/axe';
import { freePort, startServer, untilHealthy } from './support/server-process';

// Sign-up while the mail server is away: the account is made, the code screen says the mail could not be sent
// and offers to send it again, at 1280 px in light and 390 px in dark, axe-clean. (That the resent code arrives
// once the mail server is back, and that queued mails are sent later, is the server suite's smtp-down test.)

const screens = [
  { width: 1280, height: 800, colorScheme: 'light' },
  { width: 390, height: 844, colorScheme: 'dark' },
] as const;

test('sign-up with the mail server away says so on the code screen and offers to resend', async ({
  browser,
  playwright,
}, testInfo) => {
  const port = await freePort();
  // Nothing listens here: every mail is refused at once, as when the SMTP server is down.
  const smtpPort = await freePort();
  const server = startServer(port, mkdtempSync(path.join(tmpdir(), 'parley-smtp-down-')), {
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  });
  const baseURL = `http://127.0.0.1:${port}`;
  const request = await playwright.request.newContext({ baseURL });
  try {
    await untilHealthy(request);
    for (const { width, height, colorScheme } of screens) {
      const context = await browser.newContext({ baseURL, viewport: { width, height }, colorScheme });
      const page = await context.newPage();
      const account = newAccount('nomail');
      await signUpOnScreen(page, account);

      const notice = page.getByRole('status').filter({ hasText: MSG.verificationNotSent });
      await expect(notice).toBeVisible();
      await expect(page.getByText('Your account is created. We will send a 6-digit code to')).toBeVisible();
      const resend = page.getByRole('button', { name: 'Resend', exact: true });
      await expect(resend).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath(`no-mail-${width}-${colorScheme}.png`) });
      expect(await seriousFindings(page)).toEqual([]);

      // Still away: trying again keeps the account and the screen, and says the mail did not go.
      await resend.click();
      await expect(page.getByRole('heading', { name: 'Verify your email' })).toBeVisible();
      await expect(notice).toBeVisible();
      await context.close();
    }
  } finally {
    await request.dispose();
    server.kill('SIGTERM');
  }
});
