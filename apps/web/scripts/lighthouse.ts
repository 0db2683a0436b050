// Lighthouse on a chat room (issue 12's budget): starts the production build (apps/server/dist serving
// apps/web/dist) on a free port with a fresh SQLite database, seeds two people and a conversation, signs one
// of them in, and audits /chats/{id} with Lighthouse's mobile emulation (its default: a mid-range phone,
// simulated slow 4G) in Debian's Chromium, never a downloaded browser. Prints Performance, Accessibility and
// Best Practices, the audits that lost points, and whether Chromium finds the app installable.
//
//   npm run build && npm run lighthouse -w @parley/web      (exits 1 when a budget is missed)
//
// Not part of `npm test`: a score depends on the machine, so it is a measurement, not a test.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import lighthouse from 'lighthouse';
import WebSocket from 'ws';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const BUDGET = { performance: 90, accessibility: 100, 'best-practices': 95 } as const;
const MESSAGES = 40;

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

function startServer(port: number, dataDir: string): ChildProcess {
  const main = path.join(repo, 'apps/server/dist/main.js');
  // WEB_DIST (the server's own setting) may point at a copy of the build.
  const web = process.env.WEB_DIST ?? path.join(repo, 'apps/web/dist');
  if (!fs.existsSync(main) || !fs.existsSync(path.join(web, 'index.html')))
    throw new Error('Build first: npm run build');
  return spawn(process.execPath, [main], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      REDIS_URL: '',
      SMTP_URL: '',
    },
  });
}

interface Session {
  token: string;
  user: { id: number; username: string };
}

/** Signs a new person up through the API, verified with the code from the dev outbox, and logs them in. */
async function person(base: string, name: string): Promise<Session> {
  const id = randomBytes(4).toString('hex');
  const account = {
    first_name: name,
    last_name: 'Lighthouse',
    username: `${name.toLowerCase()}_${id}`,
    email: `${name.toLowerCase()}.${id}@example.test`,
    password: `Parley-lh-${id}`,
  };
  const post = (url: string, body: unknown, token?: string) =>
    fetch(`${base}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  const registered = await post('/api/users/register/', account);
  if (!registered.ok) throw new Error(`Sign-up failed: ${registered.status} ${await registered.text()}`);
  let code: string | undefined;
  await waitFor(async () => {
    const mails = (await (await fetch(`${base}/dev/mail.json`)).json()) as {
      to: string | string[];
      text: string;
    }[];
    code = mails.find((m) => String(m.to).includes(account.email))?.text.match(/\b(\d{6})\b/)?.[1];
    return code !== undefined;
  }, 'the sign-up code');
  const verified = await post('/api/users/email/verify/signup/', {
    email: account.email,
    verification_code: code,
  });
  if (!verified.ok) throw new Error(`Verification failed: ${verified.status}`);
  const login = await post('/api/users/login/', {
    email: account.email,
    password: account.password,
    remember_me: true,
  });
  if (!login.ok) throw new Error(`Login failed: ${login.status}`);
  const { token, ...user } = (await login.json()) as Session['user'] & { token: string };
  return { token, user };
}

/** Sends `count` messages into the chat on its room socket and waits for each echo. */
async function converse(base: string, from: Session, chatId: string, count: number) {
  const ticketRes = await fetch(`${base}/api/ws/ticket/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${from.token}` },
  });
  const { ticket } = (await ticketRes.json()) as { ticket: string };
  const ws = new WebSocket(
    `${base.replace('http', 'ws')}/ws/chatroom/${chatId}/?token=${encodeURIComponent(ticket)}`,
  );
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let echoed = 0;
  const done = new Promise<void>((resolve) => {
    ws.on('message', (data) => {
      if ((JSON.parse(String(data)) as { type: string }).type === 'chat_message' && ++echoed === count)
        resolve();
    });
  });
  for (let i = 1; i <= count; i++) {
    const body =
      i % 7 === 0
        ? `Message ${i}: a longer one, to fill the bubble the way a real conversation does, with https://example.com/page-${i}`
        : `Message ${i} of the conversation`;
    ws.send(
      JSON.stringify({ type: 'chat_message', body, client_id: `lh-${i}-${randomBytes(4).toString('hex')}` }),
    );
  }
  await done;
  ws.close(1000);
}

async function main() {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-lighthouse-'));
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-lighthouse-chromium-'));
  const server = startServer(port, dataDir);
  try {
    await waitFor(async () => (await fetch(`${base}/api/health`)).ok, 'the server');
    const ada = await person(base, 'Ada');
    const grace = await person(base, 'Grace');
    const started = await fetch(`${base}/api/chats/start/${grace.user.username}/`, {
      headers: { authorization: `Bearer ${ada.token}` },
    });
    const { chat_id: chatId } = (await started.json()) as { chat_id: string };
    await converse(base, grace, chatId, MESSAGES / 2);
    await converse(base, ada, chatId, MESSAGES / 2);
    const url = `${base}/chats/${chatId}`;

    // The session and the installability check in a Playwright-driven Chromium, whose profile then serves
    // Lighthouse's own Chromium (two drivers on one browser trip each other up).
    const context = await chromium.launchPersistentContext(profileDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
    let installabilityErrors: { errorId: string }[];
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(`${base}/api/health`);
      await page.evaluate(
        ({ token, user }) => {
          localStorage.setItem('token', token);
          localStorage.setItem('user', JSON.stringify(user));
          localStorage.setItem('rememberMe', 'true');
        },
        { token: ada.token, user: ada.user },
      );
      // Installability as Chromium judges it: the room loaded, its service worker active, no errors listed.
      await page.goto(url);
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
      });
      const cdp = await context.newCDPSession(page);
      ({ installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
        installabilityErrors: { errorId: string }[];
      });
      // A first visit, as Lighthouse would see it without its storage reset (which would sign Ada out): no
      // service worker, no cached files, no persisted query cache; the session in localStorage stays.
      await cdp.send('Storage.clearDataForOrigin', {
        origin: base,
        storageTypes: 'service_workers,cache_storage,indexeddb',
      });
      await cdp.send('Network.clearBrowserCache');
    } finally {
      await context.close();
    }

    const debuggingPort = await freePort();
    const browser = spawn(
      CHROMIUM,
      [
        '--headless=new',
        `--remote-debugging-port=${debuggingPort}`,
        `--user-data-dir=${profileDir}`,
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        'about:blank',
      ],
      { stdio: 'ignore' },
    );
    try {
      await waitFor(
        async () => (await fetch(`http://127.0.0.1:${debuggingPort}/json/version`)).ok,
        'Chromium',
      );
      const result = await lighthouse(url, {
        port: debuggingPort,
        output: 'json',
        logLevel: 'error',
        disableStorageReset: true,
        onlyCategories: ['performance', 'accessibility', 'best-practices'],
      });
      if (!result) throw new Error('Lighthouse returned nothing');
      const { lhr } = result;
      const reportFile = path.join(os.tmpdir(), 'parley-lighthouse.json');
      fs.writeFileSync(reportFile, JSON.stringify(lhr));

      let missed = false;
      console.log(`Lighthouse ${lhr.lighthouseVersion} on ${url.replace(base, '')} (mobile emulation)`);
      for (const [id, min] of Object.entries(BUDGET)) {
        const category = lhr.categories[id];
        const score = Math.round((category?.score ?? 0) * 100);
        const ok = score >= min;
        missed ||= !ok;
        console.log(
          `  ${(category?.title ?? id).padEnd(15)} ${String(score).padStart(3)}  (budget ≥ ${min}) ${ok ? 'ok' : 'MISSED'}`,
        );
      }
      for (const metric of [
        'first-contentful-paint',
        'largest-contentful-paint',
        'total-blocking-time',
        'cumulative-layout-shift',
        'speed-index',
      ]) {
        const audit = lhr.audits[metric];
        if (audit) console.log(`    ${audit.title}: ${audit.displayValue ?? ''}`);
      }
      const installable = installabilityErrors.length === 0;
      missed ||= !installable;
      console.log(
        `  Installable      ${installable ? 'yes' : `no (${installabilityErrors.map((e) => e.errorId).join(', ')})`}`,
      );
      const lost = Object.values(lhr.categories)
        .flatMap((c) => c.auditRefs.filter((r) => r.weight > 0).map((r) => lhr.audits[r.id]!))
        .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode !== 'informative');
      if (lost.length) {
        console.log('  Audits that lost points:');
        for (const a of lost) console.log(`    ${a.id} (${Math.round((a.score ?? 0) * 100)}): ${a.title}`);
      }
      console.log(`  Full report: ${reportFile}`);
      process.exitCode = missed ? 1 : 0;
    } finally {
      const exited = new Promise((resolve) => browser.once('exit', resolve));
      browser.kill('SIGTERM');
      await exited;
    }
  } finally {
    server.kill('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(profileDir, { recursive: true, force: true, maxRetries: 5 });
  }
}

await main();
