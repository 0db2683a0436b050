import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';

// axe runs every rule it has (no tag is chosen) and a screen passes when nothing serious or critical is found.
// Legacy mode runs axe in the page itself instead of sending each frame's results to a blank page of their own to
// be merged; Parley's CSP allows no cross-origin frame, the one kind that mode cannot reach, so the findings are
// the same in about a third of the time on a busy machine. Only the violations are written out in full.

/** Waits until the page's short transitions and animations have ended and the pictures in view are drawn. */
async function settled(page: Page) {
  await page.evaluate(async () => {
    const short = document.getAnimations().filter((animation) => {
      const end = animation.effect?.getComputedTiming().endTime;
      return animation.playState === 'running' && typeof end === 'number' && end <= 2_000;
    });
    await Promise.all(short.map((animation) => animation.finished.catch(() => undefined)));
  });
  await expect
    .poll(
      () =>
        page.evaluate(() =>
          [...document.images].every((img) => {
            const box = img.getBoundingClientRect();
            const inView = box.bottom > 0 && box.top < innerHeight && box.right > 0 && box.left < innerWidth;
            return img.complete || !inView;
          }),
        ),
      { message: 'the pictures in view are drawn' },
    )
    .toBe(true);
}

/** axe's serious and critical findings on the page as a person sees it, or inside `include`, one line a node. */
export async function seriousFindings(page: Page, include?: string): Promise<string[]> {
  await settled(page);
  let axe = new AxeBuilder({ page }).setLegacyMode().options({ resultTypes: ['violations'] });
  if (include) axe = axe.include(include);
  const { violations } = await axe.analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes
        .slice(0, 5)
        .map(
          (n) => `${v.id} (${v.impact}) ${n.target.join(' ')} — ${n.failureSummary?.split('\n')[1] ?? ''}`,
        ),
    );
}

/** axe finds nothing serious on the page in the light theme, nor in the dark one; it is left light. */
export async function expectAxeCleanLightAndDark(page: Page) {
  expect(await seriousFindings(page)).toEqual([]);
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await seriousFindings(page)).toEqual([]);
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * At 1280 and at 390 px: on each page, `shown(page)` is in view and axe is clean in both themes; then `shot` saves
 * a screenshot of the first page as it is (light) and of the second in the dark theme, named by the width.
 */
export async function expectAxeCleanAtBothWidths(
  pages: [Page, Page],
  shown: (page: Page) => Locator,
  shot: (width: 'wide' | 'narrow', which: 'first' | 'second-dark') => string,
) {
  for (const [width, name] of [
    [1280, 'wide'],
    [390, 'narrow'],
  ] as const) {
    for (const page of pages) {
      await page.setViewportSize({ width, height: 800 });
      await expect(shown(page)).toBeInViewport();
      await expectAxeCleanLightAndDark(page);
    }
    const [first, second] = pages;
    await first.screenshot({ path: shot(name, 'first') });
    await second.emulateMedia({ colorScheme: 'dark' });
    await second.screenshot({ path: shot(name, 'second-dark') });
    await second.emulateMedia({ colorScheme: 'light' });
  }
}
