import { expect, type Page, test } from '@playwright/test';
import { expectAxeCleanLightAndDark } from './support/axe';

// /api/docs/: the published API's reference (Swagger UI served by Parley) renders /api/openapi.json under the
// server's CSP: no violation, no script error, an operation opens with its auth and its answers; axe is clean in
// light and dark at 1280 and 390 px.

/** Everything the browser complains of: CSP violations are console errors, a script's failure a page error. */
function complaints(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') seen.push(message.text());
  });
  page.on('pageerror', (error) => seen.push(error.message));
  return seen;
}

/** The theme's colour transitions finished, so a screenshot shows the theme and not the way to it. */
const transitionsDone = (page: Page) =>
  page.evaluate(() =>
    Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))),
  );

test('the API reference renders the OpenAPI document within the CSP', async ({ page }, info) => {
  const said = complaints(page);
  const answer = await page.goto('/api/docs');
  expect(answer?.url()).toMatch(/\/api\/docs\/$/);
  expect(answer?.headers()['content-security-policy']).toContain("script-src 'self'");

  await expect(page.getByRole('heading', { name: /Parley API/ })).toBeVisible();
  await expect(page.getByText('OAS 3.1')).toBeVisible();
  // A tag's heading opens its operations; an operation's summary opens it.
  await page.locator('#operations-tag-Messages').click();
  const send = page.locator('#operations-Messages-postChatsChatIdMessages');
  await expect(send).toBeVisible();
  await send.locator('.opblock-summary-control').click();
  await expect(send.getByText('An API token with the write scope', { exact: false })).toBeVisible();
  await expect(send.locator('.responses-table').getByText('429', { exact: true })).toBeVisible();

  for (const [width, name] of [
    [1280, 'wide'],
    [390, 'narrow'],
  ] as const) {
    await page.setViewportSize({ width, height: 800 });
    const summary = send.locator('.opblock-summary');
    await summary.scrollIntoViewIfNeeded();
    await expect(summary).toBeInViewport();
    await expectAxeCleanLightAndDark(page);
    await transitionsDone(page);
    await page.screenshot({ path: info.outputPath(`api-docs-${name}-light.png`) });
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.locator('html')).toHaveClass(/dark-mode/);
    await transitionsDone(page);
    await page.screenshot({ path: info.outputPath(`api-docs-${name}-dark.png`) });
    await page.emulateMedia({ colorScheme: 'light' });
  }
  expect(said).toEqual([]);
});
