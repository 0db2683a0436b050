import path from 'node:path';
import { wavOf } from '@parley/fixtures';
import { VOICE_TEXT } from '@parley/protocol';
import { expect, type Page, test } from '@playwright/test';
import { expectAxeCleanLightAndDark, seriousFindings } from './support/axe';
import { chromiumLaunch } from './support/chromium';
import { peoplePerTest, privateChat } from './support/people';
import { loading, openRoom, timeline } from './support/room';

// Voice messages between two people: Ada holds the microphone and speaks (Chromium's fake microphone, a beep a
// second), lets go and it is sent; Grace plays it, and Ada sees it played. Also: a click starts a recording
// that Escape cancels, a microphone the browser refuses says so, and an audio file attached plays in the room
// and in search.

const SHOTS = process.env.PARLEY_E2E_SHOTS ?? path.join(import.meta.dirname, '..', 'test-results', 'screens');

// The microphone: Chromium's fake device, allowed without asking; the sound plays without a gesture first.
test.use({
  launchOptions: chromiumLaunch([
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
    '--autoplay-policy=no-user-gesture-required',
  ]),
});

const person = peoplePerTest();
const micButton = (page: Page) => page.getByRole('button', { name: 'Record voice message' });
const voiceRows = (page: Page) =>
  timeline(page)
    .locator('[data-message-id]')
    .filter({ has: page.getByTestId('audio-player') });

/**
 * Waits until the recording's timer has reached `seconds`. The timer moves on while the check polls, so on a busy
 * machine a poll can miss the one second a value shows: the wait is for "at least", never for one value.
 */
async function timerReaches(page: Page, seconds: number) {
  await expect.poll(() => timerSeconds(page), { timeout: 30_000 }).toBeGreaterThanOrEqual(seconds);
}

const timerSeconds = async (page: Page) => {
  const [minutes, secs] = ((await page.getByTestId('voice-timer').textContent()) ?? '').split(':');
  return Number(minutes) * 60 + Number(secs);
};

/**
 * Holds the microphone until the timer shows `seconds`, then lets go: the recording is sent. Returns the whole
 * seconds the timer showed just before the release, which the recording's measured length may exceed by a little.
 */
async function holdToRecord(page: Page, seconds: number): Promise<number> {
  const box = await micButton(page).boundingBox();
  if (!box) throw new Error('no microphone button');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await expect(page.getByTestId('voice-recorder')).toBeVisible(loading);
  await expect(page.getByTestId('voice-status')).toHaveText('Recording. Release to send.');
  await timerReaches(page, seconds);
  const shown = await timerSeconds(page);
  await page.mouse.up();
  return shown;
}

/** The lengths a recording released at `shown` seconds on the timer may measure: that second or the next two. */
const lengthsFrom = (shown: number) => [shown, shown + 1, shown + 2];
const asClock = (seconds: number) => `0:${String(seconds).padStart(2, '0')}`;

/** axe is clean in both themes (the device's setting switched, which the app follows); `theme` is then restored. */
async function axeCleanInBothThemes(page: Page, theme: 'light' | 'dark') {
  await expectAxeCleanLightAndDark(page);
  await page.emulateMedia({ colorScheme: theme });
}

// Each width once, each in one theme for its screenshots; axe scans both themes at each width.
for (const { width, theme } of [
  { width: 1280, theme: 'light' as const },
  { width: 390, theme: 'dark' as const },
]) {
  test(`a voice message is recorded, sent, played and shown played, at ${width} px in the ${theme} theme`, async ({
    browser,
    request,
  }) => {
    const options = { viewport: { width, height: 800 }, colorScheme: theme };
    const ada = await person(browser, request, 'ada', options);
    const grace = await person(browser, request, 'grace', options);
    const chatId = await privateChat(request, ada, grace);
    await openRoom(ada.page, `/chats/${chatId}`);
    await openRoom(grace.page, `/chats/${chatId}`);
    const tag = `voice-${width}-${theme}`;

    // The microphone shows while nothing is typed: beside the disabled send button, in its place on a phone.
    await expect(micButton(ada.page)).toBeVisible();
    if (width > 640) await expect(ada.page.getByRole('button', { name: 'Send message' })).toBeDisabled();
    else await expect(ada.page.getByRole('button', { name: 'Send message' })).toBeHidden();
    await ada.page.getByRole('textbox', { name: 'Message' }).fill('hi');
    await expect(micButton(ada.page)).toBeHidden();
    await expect(ada.page.getByRole('button', { name: 'Send message' })).toBeEnabled();
    await ada.page.getByRole('textbox', { name: 'Message' }).fill('');

    const shown = await holdToRecord(ada.page, 2);
    await expect(ada.page.getByTestId('voice-status')).toHaveText('Voice message sent.');
    const sent = voiceRows(ada.page);
    await expect(sent).toHaveCount(1, loading);
    await expect(sent).not.toHaveAttribute('data-message-id', /^-/, loading);
    const adaPlay = sent.getByRole('button', { name: 'Play voice message' });
    await expect(adaPlay).toBeVisible();
    // The length measured from the recording: about what the timer showed when Ada let go.
    await expect(sent.getByTestId('audio-player')).toContainText(
      new RegExp(lengthsFrom(shown).map(asClock).join('|')),
    );
    await expect(sent.getByTestId('voice-played')).toBeHidden();

    const received = voiceRows(grace.page);
    await expect(received).toHaveCount(1, loading);
    await expect(received.getByTestId('voice-unplayed')).toHaveText('Not played yet');
    const bars = received.getByRole('slider', { name: 'Position in voice message' });
    await expect(bars).toHaveAttribute('aria-valuemax', new RegExp(`^(${lengthsFrom(shown).join('|')})$`));
    await grace.page.screenshot({ path: path.join(SHOTS, `${tag}-received.png`) });
    await axeCleanInBothThemes(grace.page, theme);

    await received.getByRole('button', { name: 'Play voice message' }).click();
    await expect(received.getByRole('button', { name: 'Pause voice message' })).toBeVisible();
    await expect(received.getByTestId('voice-unplayed')).toBeHidden();
    // The speed cycles 1×, 1.5×, 2×; the bars seek by keyboard.
    const speed = received.getByRole('button', { name: /^Playback speed/ });
    await speed.click();
    await expect(speed).toHaveAccessibleName('Playback speed 1.5×');
    await bars.focus();
    await bars.press('Home');
    await expect(bars).toHaveAttribute('aria-valuenow', '0');

    await expect(sent.getByTestId('voice-played')).toHaveText('Played', loading);
    await ada.page.screenshot({ path: path.join(SHOTS, `${tag}-played.png`) });
    await axeCleanInBothThemes(ada.page, theme);

    // Played survives a reload: history carries it.
    await ada.page.reload();
    await expect(voiceRows(ada.page).getByTestId('voice-played')).toHaveText('Played', loading);
  });
}

test('a click starts a recording that Escape cancels; the strip is named and announced', async ({
  browser,
  request,
}) => {
  const ada = await person(browser, request, 'ada', { viewport: { width: 390, height: 800 } });
  const grace = await person(browser, request, 'grace');
  const chatId = await privateChat(request, ada, grace);
  await openRoom(ada.page, `/chats/${chatId}`);

  await micButton(ada.page).click();
  await expect(ada.page.getByTestId('voice-status')).toHaveText(
    'Recording. Press the button again to send.',
    loading,
  );
  await expect(ada.page.getByRole('button', { name: 'Send voice message' })).toBeVisible();
  await expect(ada.page.getByRole('button', { name: 'Cancel recording' })).toBeVisible();
  await expect(ada.page.getByRole('button', { name: 'Send message' })).toBeHidden();
  await timerReaches(ada.page, 1);
  await ada.page.screenshot({ path: path.join(SHOTS, 'voice-390-recording.png') });
  expect(await seriousFindings(ada.page)).toEqual([]);
  await ada.page.keyboard.press('Escape');
  await expect(ada.page.getByTestId('voice-status')).toHaveText('Recording cancelled.');
  await expect(ada.page.getByTestId('voice-recorder')).toBeHidden();
  await expect(micButton(ada.page)).toBeVisible();

  // The keyboard: Enter starts, Enter again sends.
  await micButton(ada.page).focus();
  await ada.page.keyboard.press('Enter');
  await timerReaches(ada.page, 1);
  await ada.page.getByRole('button', { name: 'Send voice message' }).press('Enter');
  await expect(voiceRows(ada.page)).toHaveCount(1, loading);
});

test('a microphone the browser refuses is said so, and nothing is recorded', async ({ browser, request }) => {
  const ada = await person(browser, request, 'ada');
  const grace = await person(browser, request, 'grace');
  const chatId = await privateChat(request, ada, grace);
  await ada.page.addInitScript(() => {
    navigator.mediaDevices.getUserMedia = () =>
      Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
  });
  await openRoom(ada.page, `/chats/${chatId}`);
  await micButton(ada.page).click();
  await expect(ada.page.getByRole('alert').filter({ hasText: VOICE_TEXT.micDenied })).toBeVisible(loading);
  await expect(ada.page.getByTestId('voice-recorder')).toBeHidden();
  await expect(micButton(ada.page)).toBeVisible();
});

test('an audio file attached plays in the room and from its search result', async ({ browser, request }) => {
  const ada = await person(browser, request, 'ada');
  const grace = await person(browser, request, 'grace', { viewport: { width: 390, height: 800 } });
  const chatId = await privateChat(request, ada, grace);
  await openRoom(ada.page, `/chats/${chatId}`);
  await ada.page.locator('form input[type="file"]').setInputFiles({
    name: 'tune.wav',
    mimeType: 'audio/wav',
    buffer: wavOf({ ms: 3000 }),
  });
  await ada.page.getByRole('textbox', { name: 'Message' }).fill('Listen to this melody');
  await ada.page.getByRole('button', { name: 'Send message' }).click();
  const row = voiceRows(ada.page);
  await expect(row).toHaveCount(1, loading);
  await expect(row.getByRole('button', { name: 'Play tune.wav' })).toBeVisible();
  await expect(row.getByTestId('audio-player')).toContainText('0:03');

  const page = grace.page;
  await openRoom(page, `/chats/${chatId}`);
  await expect(voiceRows(page).getByRole('button', { name: 'Play tune.wav' })).toBeVisible(loading);
  await page.keyboard.press('Control+K');
  const dialog = page.getByRole('dialog', { name: 'Search' });
  await dialog.getByRole('combobox').fill('melody');
  await expect(dialog.getByRole('option').filter({ hasText: 'melody' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  const audio = dialog.getByTestId('search-result-audio');
  const play = audio.getByRole('button', { name: 'Play tune.wav' });
  await expect(play).toBeVisible(loading);
  await play.click();
  await expect(audio.getByRole('button', { name: 'Pause tune.wav' })).toBeVisible();
  await page.screenshot({ path: path.join(SHOTS, 'voice-390-search.png') });
  expect(await seriousFindings(page)).toEqual([]);
});
