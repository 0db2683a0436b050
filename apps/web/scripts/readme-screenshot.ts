// The README's picture (docs/screenshot.png): starts the production build (apps/server/dist serving
// apps/web/dist) on a free port with a fresh SQLite database, seeds a small scene — Ada Lovelace's chats, her
// conversation with Grace Hopper open — and photographs it at 1280×800 in the light theme, in Debian's
// Chromium, never a downloaded browser.
//
//   npm run build && npm run screenshot -w @parley/web
//
// The same picture every run: the messages are moved to fixed times of one morning in the database once they
// are sent (the server stamps them with its own clock), and the page's clock is held at that morning. The emoji
// are in colour where fontconfig finds a colour emoji font (Debian: fonts-noto-color-emoji); it warns if not.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Message } from '@parley/protocol';
import { chromium } from '@playwright/test';
import Database from 'better-sqlite3';
import {
  api,
  CHROMIUM,
  CHROMIUM_ARGS,
  converse,
  databaseFile,
  freePort,
  type Outgoing,
  openRoom,
  person,
  repo,
  type Session,
  signIn,
  startChat,
  startServer,
  stopServer,
  waitFor,
} from './local-parley';

/** SCREENSHOT_PATH writes it elsewhere (a try that should not replace the README's). */
const OUT = path.resolve(process.env.SCREENSHOT_PATH ?? path.join(repo, 'docs/screenshot.png'));
const VIEWPORT = { width: 1280, height: 800 };
/** The page's clock: a Thursday morning, a few minutes after the last message. */
const NOW = new Date('2026-03-12T09:45:00Z');
/** A time of the scene's day ('09:41'), or of a day before it (`daysBefore`), in UTC (the page's time zone). */
const at = (hhmm: string, daysBefore = 0) => {
  const day = new Date(NOW.getTime() - daysBefore * 86_400_000).toISOString().slice(0, 10);
  return `${day}T${hhmm}:00.000Z`;
};

/** Ada's reaction to Grace's result: not a face, which DejaVu Sans (ahead of any emoji font) draws in outline. */
const REACTION = '🎉';

/** One line of the scene: who says it, when, and what (a reply names the line it answers by its index). */
interface Line {
  from: Session;
  time: string;
  body: string;
  replyTo?: number;
}

/** Sends the lines in order, each person's run on one socket; answers the stored messages with their times. */
async function play(base: string, chatId: string, lines: Line[]) {
  const sent: { message: Message; time: string }[] = [];
  for (let i = 0; i < lines.length; ) {
    const from = lines[i]!.from;
    let end = i;
    while (end < lines.length && lines[end]!.from === from) end++;
    const run = lines.slice(i, end);
    const outgoing: Outgoing[] = run.map((l) =>
      l.replyTo === undefined ? l.body : { body: l.body, reply_to: sent[l.replyTo]!.message.id },
    );
    const stored = await converse(base, from, chatId, outgoing);
    stored.forEach((message, k) => {
      sent.push({ message, time: run[k]!.time });
    });
    i = end;
  }
  return sent;
}

/** `reader` reads the chat to its end (as opening it would), and the chat list says so; answers the socket. */
async function readAll(base: string, reader: Session, chatId: string, messages: Message[]) {
  const ws = await openRoom(base, reader, chatId);
  const ids = messages.filter((m) => m.sender !== reader.user.id).map((m) => m.id);
  ws.send(JSON.stringify({ type: 'read_messages', message_ids: ids }));
  await waitFor(async () => {
    const { chats } = await api<{ chats: { chat_id: string; unread_count: number }[] }>(
      base,
      reader,
      'GET',
      '/api/chats/my/',
    );
    return chats.find((c) => c.chat_id === chatId)?.unread_count === 0;
  }, `${reader.user.username} to read ${chatId}`);
  return ws;
}

/** Without a colour emoji font Chromium draws the scene's emoji as outlines or boxes: say so, still go on. */
function checkEmojiFont() {
  let families = '';
  try {
    families = execFileSync('fc-list', [':color=true', 'family'], { encoding: 'utf8' });
  } catch {
    // No fontconfig tools: nothing to tell.
    return;
  }
  if (!families.trim())
    console.warn(
      'No colour emoji font (Debian: fonts-noto-color-emoji): the emoji in the picture will not be in colour.',
    );
}

async function main() {
  checkEmojiFont();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-screenshot-'));
  const server = startServer(port, dataDir);
  let graceInRoom: { close: (code?: number) => void } | undefined;
  try {
    await waitFor(async () => (await fetch(`${base}/api/health`)).ok, 'the server');
    // Charles first: the first account is the site's admin, and Ada's header then has no Admin link.
    const charles = await person(base, { first: 'Charles', last: 'Babbage', username: 'charles' });
    const ada = await person(base, { first: 'Ada', last: 'Lovelace', username: 'ada' });
    const grace = await person(base, { first: 'Grace', last: 'Hopper', username: 'grace' });
    const katherine = await person(base, { first: 'Katherine', last: 'Johnson', username: 'katherine' });
    const alan = await person(base, { first: 'Alan', last: 'Turing', username: 'alan' });
    const times = new Map<number, string>();
    const timed = (sent: { message: Message; time: string }[]) => {
      for (const { message, time } of sent) times.set(message.id, time);
      return sent.map((s) => s.message);
    };

    // Oldest first, so that the list's order (by last activity) is the scene's. Alan: two days ago, read.
    const alanChat = await startChat(base, ada, alan);
    const alanMessages = timed(
      await play(base, alanChat, [
        {
          from: alan,
          time: at('16:05', 2),
          body: 'Your notes on the Engine changed how I think about machines.',
        },
        { from: ada, time: at('16:20', 2), body: 'That means a lot. Send me the paper when it is out?' },
        { from: alan, time: at('16:24', 2), body: 'You will be the first to read it.' },
      ]),
    );
    (await readAll(base, ada, alanChat, alanMessages)).close(1000);

    // The group Ada made (hence her Admin badge), read up to this morning.
    const { chat_id: group } = await api<{ chat_id: string }>(base, ada, 'POST', '/api/chats/group/new/', {
      group_name: 'Analytical Engine',
    });
    await api(base, ada, 'POST', `/api/chats/${group}/members/`, {
      members: [grace, katherine, alan, charles].map((p) => p.user.username),
    });
    const groupMessages = timed(
      await play(base, group, [
        { from: charles, time: at('17:10', 1), body: 'The drawings for the mill are finished.' },
        { from: katherine, time: at('17:26', 1), body: 'I will check the carry mechanism tonight.' },
        { from: charles, time: at('08:15'), body: 'Gears arrive on Monday!' },
      ]),
    );
    (await readAll(base, ada, group, groupMessages)).close(1000);

    // Katherine: two messages Ada has not read yet.
    const katherineChat = await startChat(base, katherine, ada);
    timed(
      await play(base, katherineChat, [
        { from: katherine, time: at('09:30'), body: 'Checked the trajectory tables you sent.' },
        { from: katherine, time: at('09:32'), body: 'Two small fixes, otherwise spot on ✨' },
      ]),
    );

    // The open conversation: a reply, a reaction, a mention, a little formatting.
    const graceChat = await startChat(base, ada, grace);
    const graceMessages = timed(
      await play(base, graceChat, [
        {
          from: grace,
          time: at('09:02'),
          body: 'Morning Ada! I ran your Bernoulli program on the new compiler last night.',
        },
        { from: ada, time: at('09:04'), body: 'And? Did it survive the trip?' },
        { from: grace, time: at('09:05'), body: 'The only bug was a real moth, stuck in relay 70 🐛' },
        { from: grace, time: at('09:06'), body: 'Output: `B8 = -1/30`, *exactly* as in your Note G.' },
        { from: ada, time: at('09:09'), body: 'Tape it into the logbook. That moth is history!', replyTo: 2 },
        {
          from: grace,
          time: at('09:38'),
          body: "@ada we're showing it to the team on Friday. Would you do the intro?",
        },
        { from: ada, time: at('09:41'), body: "Gladly. I'll bring the punch cards." },
      ]),
    );
    const output = graceMessages[3]!;
    await api(
      base,
      ada,
      'PUT',
      `/api/chats/${graceChat}/messages/${output.id}/reactions/${encodeURIComponent(REACTION)}/`,
    );
    (await readAll(base, ada, graceChat, graceMessages)).close(1000);
    // Grace stays in the room (the header says so) and has read Ada's messages (two blue ticks).
    graceInRoom = await readAll(base, grace, graceChat, graceMessages);

    // The scene's times, in the database the server reads (it keeps no copy of them in memory).
    const db = new Database(databaseFile(dataDir));
    try {
      db.pragma('busy_timeout = 5000');
      db.transaction(() => {
        const setMessage = db.prepare('UPDATE messages SET created_at = ? WHERE id = ?');
        for (const [id, time] of times) setMessage.run(time, id);
        // What the server wrote itself (the group's 'created' and 'added' notes, reactions): before the first
        // message of their chat.
        db.prepare(
          `UPDATE messages SET created_at = (
             SELECT strftime('%Y-%m-%dT%H:%M:%fZ', MIN(m.created_at), '-5 minutes') FROM messages m
             WHERE m.chat_id = messages.chat_id AND m.kind = 'user')
           WHERE kind = 'system'`,
        ).run();
        db.prepare(
          `UPDATE message_reactions SET created_at =
             (SELECT created_at FROM messages WHERE messages.id = message_reactions.message_id)`,
        ).run();
        db.prepare(
          `UPDATE chats SET
             created_at = (SELECT MIN(created_at) FROM messages WHERE chat_id = chats.id),
             last_activity_at = (SELECT MAX(created_at) FROM messages WHERE chat_id = chats.id)`,
        ).run();
        db.prepare(
          'UPDATE chat_members SET joined_at = (SELECT created_at FROM chats WHERE chats.id = chat_members.chat_id)',
        ).run();
      })();
    } finally {
      db.close();
    }

    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    try {
      const context = await browser.newContext({
        viewport: VIEWPORT,
        deviceScaleFactor: 1,
        colorScheme: 'light',
        locale: 'en-US',
        timezoneId: 'UTC',
        reducedMotion: 'reduce',
        // No service worker: nothing to install or update in a one-off browser.
        serviceWorkers: 'block',
      });
      await context.clock.setFixedTime(NOW);
      const page = await context.newPage();
      await signIn(page, base, ada);
      await page.evaluate(() => localStorage.setItem('theme', 'light'));
      await page.goto(`${base}/chats/${graceChat}`);

      // Everything in place: the list's four chats, every message, the reaction, Grace in the room,
      // Ada's messages read, nothing loading, no toast.
      const list = page.getByRole('complementary', { name: 'Chat list' });
      await waitFor(async () => (await list.getByRole('listitem').count()) === 4, 'the chat list', 15_000);
      const messages = page.locator('[data-message-id]');
      await waitFor(async () => (await messages.count()) === graceMessages.length, 'the messages', 15_000);
      await page.getByText('In this chat').waitFor();
      const own = graceMessages.filter((m) => m.sender === ada.user.id).length;
      await page
        .getByRole('img', { name: 'Read' })
        .nth(own - 1)
        .waitFor();
      await page.getByRole('list', { name: 'Reactions' }).getByText(REACTION).waitFor();
      await page.waitForLoadState('networkidle');
      await page.evaluate(async () => {
        await document.fonts.ready;
      });
      await waitFor(
        async () =>
          (await page.locator('[aria-busy="true"], .Toastify__toast, [role="progressbar"]').count()) === 0,
        'spinners and toasts to go',
        15_000,
      );
      // No hover, no caret, no focus ring: the picture of a room at rest.
      await page.mouse.move(0, VIEWPORT.height - 1);
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.waitForTimeout(300);

      fs.mkdirSync(path.dirname(OUT), { recursive: true });
      await page.screenshot({ path: OUT, animations: 'disabled', caret: 'hide' });
      console.log(`Wrote ${path.relative(process.cwd(), OUT)} (${VIEWPORT.width}×${VIEWPORT.height})`);
    } finally {
      await browser.close();
    }
  } finally {
    graceInRoom?.close(1000);
    await stopServer(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
