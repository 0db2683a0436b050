import { expect, type Locator, type Page } from '@playwright/test';

// A chat room as the journeys drive it: opened at its address and sent to from its composer.

/** A page loading from scratch on a busy machine: a longer ceiling. */
export const loading = { timeout: 60_000 };

/** The room's list of messages. */
export const timeline = (page: Page) => page.getByRole('region', { name: 'Messages' });

/**
 * Opens a room (`/groups/{id}` or `/chats/{id}`) and waits for its composer; in a group also for its socket,
 * which the header says is connected (a private chat's header shows the other person's presence instead).
 */
export async function openRoom(page: Page, path: string) {
  await page.goto(path);
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible(loading);
  if (path.startsWith('/groups/'))
    await expect(page.locator('[data-status="connected"]')).toBeVisible(loading);
}

/** Sends `text` from the room's composer and waits for it in the list. */
export async function send(page: Page, text: string) {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
  await expect(timeline(page).getByText(text, { exact: true })).toBeVisible();
}

/**
 * Opens a message's actions menu from its row and returns the menu. A press can be lost while the list is still
 * settling (its rows drawn again as receipts and pictures arrive): as a person would, it presses again, but only
 * while the menu has not opened, as a second press closes it.
 */
export async function openMessageMenu(row: Locator): Promise<Locator> {
  const button = row.getByRole('button', { name: 'Message actions' });
  await expect(async () => {
    if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
    await expect(button).toHaveAttribute('aria-expanded', 'true', { timeout: 10_000 });
  }).toPass(loading);
  return row.page().getByRole('menu', { name: 'Message actions' });
}
