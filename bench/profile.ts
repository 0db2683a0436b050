import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { summarise } from './lib/cpu-profile';
import { cpuBetween, runJob } from './lib/drive';
import { cpuSeconds } from './lib/proc';
import { checkPostgres, defaultPostgresUrl, sourceAddresses, startRedis } from './lib/services';
import type { ChurnResult, RateResult } from './load/ipc';
import { CHANNELS } from './scenarios/channels';
import { autocannon } from './scenarios/page-load';
import { startTarget, type Variant } from './targets';

// `npx tsx bench/profile.ts [--variant parley] [--rooms 100] [--members 10] [--rate 500] [--seconds 10]
//  [--http [--page <path>] | --churn] [--preload file.mjs] [--no-profile]`: runs Parley (the built bundle) at a
// fixed open-loop message rate (or, with --http, under autocannon on the history page, or on another --page of a
// Parley also seeded with the channels scenario's public channels, e.g. `--page '/api/channels/?q=garden'`; with
// --churn, sockets opened and closed by 50 workers), prints its CPU per 1,000 deliveries (requests) and, from
// --cpu-prof, where that CPU went, by area and by function (self and inclusive), mapped back to the sources.
// --preload adds an experiment (bench/experiments/) to the server process. Build the server first.
const { values: a } = parseArgs({
  options: {
    variant: { type: 'string', default: 'parley' },
    rooms: { type: 'string', default: '100' },
    members: { type: 'string', default: '10' },
    rate: { type: 'string', default: '500' },
    seconds: { type: 'string', default: '10' },
    top: { type: 'string', default: '25' },
    http: { type: 'boolean', default: false },
    page: { type: 'string' },
    churn: { type: 'boolean', default: false },
    preload: { type: 'string' },
    'no-profile': { type: 'boolean', default: false },
  },
});
const variant = a.variant as Variant;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-profile-'));
const postgresUrl = defaultPostgresUrl();
if (variant.includes('pg')) await checkPostgres(postgresUrl);
const redis = variant === 'parley-pg-redis' ? await startRedis() : null;
const target = await startTarget(
  variant,
  a.http && a.page
    ? { rooms: 1, membersPerRoom: 10, extraUsers: 2000, channels: CHANNELS }
    : a.http
      ? { rooms: 1, membersPerRoom: 10, historyMessages: 60 }
      : a.churn
        ? { rooms: 0, membersPerRoom: 0, extraUsers: 2000 }
        : { rooms: Number(a.rooms), membersPerRoom: Number(a.members) },
  { postgresUrl, redisUrl: redis?.url ?? '' },
  [
    ...(a['no-profile'] ? [] : ['--cpu-prof', `--cpu-prof-dir=${dir}`]),
    ...(a.preload ? ['--import', pathToFileURL(path.resolve(a.preload)).href] : []),
  ],
);
/** Loads the server as asked and says what it achieved. */
async function load(): Promise<string> {
  if (a.http) {
    const room = target.rooms[0];
    const pid = target.procs[0]?.pid as number;
    let before = 0;
    const r = await autocannon(
      {
        url: `${target.urls[0]}${a.page ?? `/api/chats/${room?.id}/messages/`}`,
        headers: { authorization: `Bearer ${room?.members[0]?.token}` },
        connections: 20,
        warmupSeconds: 1,
        seconds: Number(a.seconds),
      },
      () => {
        before = cpuSeconds(pid);
      },
    );
    const cpu = cpuSeconds(pid) - before;
    return `${a.page ?? 'history page'}: ${Math.round(r.requestsPerSecond)} req/s, p50 ${r.latencyP50} ms, p99 ${r.latencyP99} ms, non-2xx ${r.non2xx}, server CPU ${((cpu / r.total) * 1e6).toFixed(0)} ms per 1,000 requests`;
  }
  if (a.churn) {
    const { result, marks } = await runJob(
      target,
      {
        mode: 'churn',
        kind: target.kind,
        members: target.loners,
        localAddresses: await sourceAddresses(),
        connectConcurrency: 50,
        concurrency: 50,
        warmupSeconds: 1,
        seconds: Number(a.seconds),
      },
      300_000,
    );
    const r = result as ChurnResult;
    const cpu = marks[0] && marks[1] ? cpuBetween(marks[0], marks[1]) : Number.NaN;
    return `churn: ${Math.round(r.perSecond)} connections/s, setup p50 ${r.setup.p50} ms, p99 ${r.setup.p99} ms, failed ${r.failed}, server CPU ${((cpu / r.cycles) * 1e3).toFixed(2)} ms per connection`;
  }
  const rate = Number(a.rate);
  const { result, marks } = await runJob(
    target,
    {
      mode: 'rate',
      kind: target.kind,
      rooms: target.rooms,
      bodyBytes: 100,
      linkBase: target.linkBase,
      localAddresses: await sourceAddresses(),
      connectConcurrency: 64,
      warmup: { rate, seconds: 1 },
      phases: [{ rate, seconds: Number(a.seconds) }],
      stopWhenSaturated: false,
      drainSeconds: 5,
    },
    300_000,
  );
  const r = result as RateResult;
  const phase = r.phases[1];
  const [from, to] = [marks[1], marks[2]];
  const cpu = from && to ? cpuBetween(from, to) : Number.NaN;
  const delivered = (phase?.deliveredPerSecond ?? 0) * (phase?.seconds ?? 0);
  return (
    `${a.rooms} rooms × ${a.members}, ${a.rate} msg/s in: delivered ${Math.round(phase?.deliveredPerSecond ?? 0)}/s, ` +
    `p50 ${phase?.latency.p50} ms, p99 ${phase?.latency.p99} ms, lost ${r.lost}, dup ${r.duplicated}, ` +
    `server CPU ${((cpu / delivered) * 1e6).toFixed(2)} ms per 1,000 deliveries`
  );
}

let outcome: string;
try {
  outcome = await load();
} finally {
  await target.stop();
  await redis?.proc?.stop();
}
console.log(`${variant}: ${outcome}`);
const top = Number(a.top);
if (a['no-profile']) process.exit(0);
for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
  const s = summarise(path.join(dir, file));
  const pct = (ms: number) => `${((ms / s.busyMs) * 100).toFixed(1).padStart(5)}%`;
  console.log(`\n${file}: ${(s.busyMs / 1000).toFixed(2)} s busy of ${(s.totalMs / 1000).toFixed(2)} s`);
  console.log('\nby area (self):');
  for (const x of s.byArea.filter((x) => x.area !== '(idle)').slice(0, top))
    console.log(`  ${pct(x.selfMs)}  ${x.area}`);
  console.log('\nby function, self:');
  for (const f of [...s.byFunction]
    .sort((x, y) => y.selfMs - x.selfMs)
    .filter((f) => f.name !== '(idle)')
    .slice(0, top))
    console.log(`  ${pct(f.selfMs)}  ${f.name}  ${f.where}`);
  console.log('\nParley functions, inclusive:');
  for (const f of [...s.byFunction]
    .filter((f) => f.where.startsWith('apps/') || f.where.startsWith('packages/'))
    .sort((x, y) => y.totalMs - x.totalMs)
    .slice(0, top))
    console.log(`  ${pct(f.totalMs)}  ${f.name}  ${f.where}`);
}
console.log(`\nprofiles kept in ${dir} (open them in Chrome DevTools → Performance)`);
