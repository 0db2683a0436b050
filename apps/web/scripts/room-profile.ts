// Where a room's first load spends the main thread (the Lighthouse budget's blocking time): the production build with the
// same 40-message conversation lighthouse.ts audits, loaded as a first visit in Debian's Chromium with the CPU
// slowed 4× (Lighthouse's phone), traced and sampled. Prints every main-thread task over 50 ms with the
// functions that took most of it (self time, bundled names as built), then the same over the whole load.
//
//   npm run build && npm run room-profile -w @parley/web [-- --runs 5] [--summary] [--inclusive RE] [--under FN]
//
// --summary prints each run's long tasks and blocking time only (no sampling profiler); --inclusive adds the
// inclusive time of the functions whose names match RE, --under that of each function FN called directly.
// Names are the build's: a build without minifying (vite build --minify false, served with WEB_DIST) keeps them.
//
// A measurement, like lighthouse.ts: never part of `npm test`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import {
  CHROMIUM,
  CHROMIUM_ARGS,
  conversationFiller,
  converse,
  freePort,
  person,
  signIn,
  startChat,
  startServer,
  stopServer,
  waitFor,
} from './local-parley';

const SLOWDOWN = 4;
const LONG_MS = 50;
const arg = (name: string) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined;
const runs = Number(arg('--runs')) || 1;
/** Functions (a regular expression on their names) whose inclusive time each long task shows as well. */
const inclusive = arg('--inclusive') ? new RegExp(arg('--inclusive')!) : null;
/** A function (by name) whose callees each long task lists with their inclusive time: what an effect runner ran. */
const under = arg('--under');
/** Only each run's long tasks and blocking time, without the sampling profiler (and its own overhead). */
const summary = process.argv.includes('--summary');

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}
interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const frameName = (node: ProfileNode, base: string) => {
  const { functionName, url, lineNumber, columnNumber } = node.callFrame;
  const file = url.replace(base, '').replace(/^\/assets\//, '') || '(native)';
  return `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}:${columnNumber + 1}`;
};

/**
 * Adds up the samples taken within [from, to) (ms, as throttled) under the names `namesOf` gives a sample's
 * stack (leaf first, each frame with its caller); a stack may count under several names, each once.
 */
function tally(
  profile: Profile,
  namesOf: (leaf: ProfileNode, parentOf: Map<number, ProfileNode>) => Iterable<string>,
  from = -Infinity,
  to = Infinity,
) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, ProfileNode>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parentOf.set(child, n);
  const totals = new Map<string, number>();
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i]!;
    if (t < from || t >= to) continue;
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    for (const name of new Set(namesOf(byId.get(profile.samples[i]!)!, parentOf)))
      totals.set(name, (totals.get(name) ?? 0) + ms);
  }
  return [...totals].sort((a, b) => b[1] - a[1]);
}

/** The stack from `leaf` up to the root. */
function* stack(leaf: ProfileNode, parentOf: Map<number, ProfileNode>) {
  for (let node: ProfileNode | undefined = leaf; node; node = parentOf.get(node.id)) yield node;
}

/**
 * Self time per function; a native function (appendChild, a forced layout's offsetHeight) is named with the
 * script function that called it.
 */
const selfTimes = (profile: Profile, base: string, from?: number, to?: number) =>
  tally(
    profile,
    (leaf, parentOf) => {
      if (leaf.callFrame.functionName === '(idle)' || leaf.callFrame.functionName === '(program)') return [];
      const caller = leaf.callFrame.url ? undefined : parentOf.get(leaf.id);
      return [caller ? `${frameName(leaf, base)} ← ${frameName(caller, base)}` : frameName(leaf, base)];
    },
    from,
    to,
  );

/** Inclusive time of the functions named by `pattern`. */
const inclusiveTimes = (profile: Profile, pattern: RegExp, from: number, to: number) =>
  tally(
    profile,
    function* (leaf, parentOf) {
      for (const node of stack(leaf, parentOf))
        if (pattern.test(node.callFrame.functionName)) yield node.callFrame.functionName;
    },
    from,
    to,
  );

/** Inclusive time of each function called directly by `caller` (by name). */
const calleeTimes = (profile: Profile, base: string, caller: string, from: number, to: number) =>
  tally(
    profile,
    function* (leaf, parentOf) {
      for (const node of stack(leaf, parentOf))
        if (parentOf.get(node.id)?.callFrame.functionName === caller) {
          yield frameName(node, base);
          return;
        }
    },
    from,
    to,
  );

async function profileOnce(base: string, url: string, signInAs: Parameters<typeof signIn>[2]) {
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-profile-chromium-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await signIn(page, base, signInAs);
    await page.goto('about:blank');
    const cdp = await context.newCDPSession(page);
    await cdp.send('Storage.clearDataForOrigin', {
      origin: base,
      storageTypes: 'service_workers,cache_storage,indexeddb',
    });
    await cdp.send('Network.clearBrowserCache');
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOWDOWN });
    const events: TraceEvent[] = [];
    cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])));
    const traced = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.start', {
      categories: 'devtools.timeline,disabled-by-default-devtools.timeline,v8.execute',
      transferMode: 'ReportEvents',
    });
    if (!summary) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    await page.goto(url, { waitUntil: 'load' });
    // A fixed wait: a locator's polling would run Playwright's own script on the page's main thread meanwhile.
    await page.waitForTimeout(6000);
    const profile = summary ? null : ((await cdp.send('Profiler.stop')) as { profile: Profile }).profile;
    await cdp.send('Tracing.end');
    await traced;
    if ((await page.getByTestId('message-body').count()) === 0) throw new Error('The room drew no message');

    // The page's main thread: of the renderers' main threads, the one that worked most.
    const busy = new Map<string, number>();
    for (const e of events)
      if (e.name === 'RunTask' && e.dur)
        busy.set(`${e.pid}:${e.tid}`, (busy.get(`${e.pid}:${e.tid}`) ?? 0) + e.dur);
    const main = events
      .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .sort((a, b) => (busy.get(`${b.pid}:${b.tid}`) ?? 0) - (busy.get(`${a.pid}:${a.tid}`) ?? 0))[0];
    const tasks = events
      .filter((e) => e.name === 'RunTask' && e.pid === main?.pid && e.tid === main?.tid && e.dur)
      .filter((e) => e.dur! / 1000 > LONG_MS)
      .sort((a, b) => a.ts - b.ts);
    const navigation = events.find((e) => e.name === 'navigationStart' && e.pid === main?.pid);
    const zero = navigation?.ts ?? tasks[0]?.ts ?? 0;
    const blocking = tasks.reduce((sum, task) => sum + task.dur! / 1000 - LONG_MS, 0);
    if (!profile) {
      const list = tasks.map((t) => `${Math.round(t.dur! / 1000)}@${Math.round((t.ts - zero) / 1000)}`);
      console.log(
        `blocking ${blocking.toFixed(0)} ms; tasks over ${LONG_MS} ms (duration@start): ${list.join(' ')}`,
      );
      return blocking;
    }
    for (const task of tasks) {
      const ms = task.dur! / 1000;
      console.log(`\n${ms.toFixed(0).padStart(5)} ms task at ${((task.ts - zero) / 1000).toFixed(0)} ms`);
      const inner = events
        .filter(
          (e) =>
            e.pid === task.pid &&
            e.tid === task.tid &&
            e.ph === 'X' &&
            e.ts >= task.ts &&
            e.ts < task.ts + task.dur! &&
            e.name !== 'RunTask' &&
            (e.dur ?? 0) / 1000 > 5,
        )
        .slice(0, 10);
      for (const e of inner)
        console.log(`        ${((e.dur ?? 0) / 1000).toFixed(0).padStart(4)} ms ${e.name}`);
      for (const [name, ms] of selfTimes(profile, base, task.ts, task.ts + task.dur!).slice(0, 8))
        console.log(`    ${ms.toFixed(1).padStart(6)} ms  ${name}`);
      if (inclusive)
        for (const [name, ms] of inclusiveTimes(profile, inclusive, task.ts, task.ts + task.dur!))
          console.log(`    ${ms.toFixed(1).padStart(6)} ms  ${name} (inclusive)`);
      if (under)
        for (const [name, ms] of calleeTimes(profile, base, under, task.ts, task.ts + task.dur!).slice(0, 12))
          console.log(`    ${ms.toFixed(1).padStart(6)} ms  ${name} (called by ${under})`);
    }
    console.log(
      `\nTasks over ${LONG_MS} ms: ${tasks.length}, blocking (throttled, whole load) ${blocking.toFixed(0)} ms`,
    );
    console.log('Self time over the whole load (throttled):');
    for (const [name, ms] of selfTimes(profile, base).slice(0, 25))
      console.log(`  ${ms.toFixed(1).padStart(6)} ms  ${name}`);
    return blocking;
  } finally {
    await context.close();
    fs.rmSync(profileDir, { recursive: true, force: true, maxRetries: 5 });
  }
}

async function main() {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-profile-'));
  const server = startServer(port, dataDir);
  try {
    await waitFor(async () => (await fetch(`${base}/api/health`)).ok, 'the server');
    const ada = await person(base, { first: 'Ada', last: 'Profile' });
    const grace = await person(base, { first: 'Grace', last: 'Profile' });
    const chatId = await startChat(base, ada, grace);
    await converse(base, grace, chatId, conversationFiller(20));
    await converse(base, ada, chatId, conversationFiller(20));
    const blocking: number[] = [];
    for (let run = 1; run <= runs; run++) {
      if (!summary) console.log(`\n=== run ${run} of ${runs}: /chats/{id}, CPU ${SLOWDOWN}× slower`);
      blocking.push(await profileOnce(base, `${base}/chats/${chatId}`, ada));
    }
    const sorted = blocking.sort((a, b) => a - b);
    console.log(
      `Blocking time over ${runs} runs (throttled ${SLOWDOWN}×, whole load): median ${sorted[Math.floor(runs / 2)]!.toFixed(0)} ms, ${sorted[0]!.toFixed(0)}–${sorted[runs - 1]!.toFixed(0)}`,
    );
  } finally {
    await stopServer(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
