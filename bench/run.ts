import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { describeMachine, waitForQuiet } from './lib/machine';
import { benchDir, fdLimit, raiseFileLimit, repoDir } from './lib/proc';
import { checkPostgres, defaultPostgresUrl, sourceAddresses, startRedis } from './lib/services';
import { spread } from './lib/stats';
import { renderMarkdown, summary } from './report/markdown';
import { emptyResults, type Results, withIdleRuns } from './report/results';
import { initialJs } from './report/web-size';
import { runChannels } from './scenarios/channels';
import { runChurnOnce } from './scenarios/churn';
import { type BenchContext, fullPlan, type Plan, quickPlan } from './scenarios/context';
import { runHistory } from './scenarios/history';
import { runIdle } from './scenarios/idle';
import { LATENCY_RATE, REDIS_RATE, runLatencyOnce } from './scenarios/latency';
import { runRestart } from './scenarios/restart';
import { runSearch } from './scenarios/search';
import { runThroughputOnce } from './scenarios/throughput';
import type { Variant } from './targets';

// `npm run bench [-- --quick] [--only a,b] [--reps n] [--idle-goal n] [--idle-variants parley,ws,socketio]
// [--idle-from <results.json>] [--generators n] [--room-sizes 10,100] [--no-build] [--docs]`: builds the server, runs every scenario
// against Parley and its peers in alternation, writes bench/results/<timestamp>.json, prints the budget table
// and (whole runs: every scenario, not --quick; or with --docs) rewrites docs/benchmarks.md.
// `--render <json>` only re-renders.
// `redis` is the latency scenario's one process against two over Redis alone (`latency` runs it too).
const SCENARIOS = [
  'throughput',
  'latency',
  'redis',
  'idle',
  'churn',
  'restart',
  'history',
  'channels',
  'search',
] as const;
type Scenario = (typeof SCENARIOS)[number];

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    reps: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
    docs: { type: 'boolean', default: false },
    'idle-goal': { type: 'string' },
    'idle-variants': { type: 'string' },
    'idle-from': { type: 'string' },
    generators: { type: 'string' },
    /** Only these room sizes in the saturation scenario (all the plan's unless said). */
    'room-sizes': { type: 'string' },
    render: { type: 'string' },
  },
});
const quick = args.quick ?? false;
/** `--idle-variants parley`: the servers the idle scenario opens its connections to (all three unless said). */
const idleVariants = (args['idle-variants']?.split(',') ?? ['parley', 'ws', 'socketio']) as Variant[];
const only = new Set((args.only?.split(',') ?? SCENARIOS) as Scenario[]);
const unknown = [...only].filter((s) => !SCENARIOS.includes(s));
if (unknown.length) {
  process.stderr.write(`unknown scenario ${unknown.join(', ')}: choose from ${SCENARIOS.join(', ')}\n`);
  process.exit(2);
}
/** Only a whole run (every scenario, full plan) replaces docs/benchmarks.md, unless --docs says so. */
const writesDocs = (!quick && only.size === SCENARIOS.length) || args.docs;
const basePlan = quick ? quickPlan : fullPlan;
const roomSizes = args['room-sizes']?.split(',').map(Number);
const plan: Plan = {
  ...basePlan,
  layouts: basePlan.layouts.filter((l) => !roomSizes || roomSizes.includes(l.size)),
  reps: Number(args.reps ?? basePlan.reps),
  idleGoal: Number(args['idle-goal'] ?? basePlan.idleGoal),
  generators: Math.max(1, Number(args.generators ?? basePlan.generators)),
};
const { reps } = plan;
const started = Date.now();
const log = (line: string) =>
  process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);

/** Every rep starts the alternation with a different server, so none always runs first. */
const rotate = <T>(list: T[], by: number) => list.map((_, i) => list[(i + by) % list.length] as T);

function git() {
  const run = (a: string[]) => spawnSync('git', a, { cwd: repoDir, encoding: 'utf8' }).stdout.trim();
  return {
    commit: run(['rev-parse', 'HEAD']),
    dirty: run(['status', '--porcelain', 'apps', 'packages', 'bench']) !== '',
  };
}

function buildServer() {
  log('building the server bundle (npm run build -w @parley/server)');
  const r = spawnSync('npm', ['run', 'build', '-w', '@parley/server'], { cwd: repoDir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`server build failed:\n${r.stdout}\n${r.stderr}`);
}

async function main() {
  if (!args['no-build']) buildServer();
  // The idle goal's connections, the server's own files and a margin (see raiseFileLimit).
  if (only.has('idle') || only.has('restart'))
    raiseFileLimit(Math.max(plan.idleGoal, plan.restartGoal) + 4_096);
  const postgresUrl = defaultPostgresUrl();
  // Only the scenarios with a PostgreSQL row need it (a virtual machine's run of the idle rows has none).
  if (['throughput', 'latency', 'redis', 'search'].some((s) => only.has(s as Scenario)))
    await checkPostgres(postgresUrl);
  const redis = await startRedis();
  const ctx: BenchContext = {
    quick,
    plan,
    services: { postgresUrl, redisUrl: redis.url },
    localAddresses: await sourceAddresses(),
    log,
  };
  const results = emptyResults(
    {
      startedAt: new Date(started).toISOString(),
      quick,
      machine: describeMachine(fdLimit(process.pid)),
      git: git(),
      web: initialJs(),
    },
    os.loadavg(),
  );
  let waitLeft = plan.quietWaitBudgetSeconds;
  const attempt = async <T>(scenario: string, variant: string, fn: () => Promise<T>): Promise<T | null> => {
    const waitStart = Date.now();
    const busy = await waitForQuiet(Math.min(plan.quietWaitSeconds, Math.max(1, waitLeft)));
    waitLeft -= (Date.now() - waitStart) / 1000;
    if (busy > 0.35) log(`  (machine busy with other work: ${busy.toFixed(2)} cores)`);
    try {
      return await fn();
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      log(`  ${scenario} / ${variant} FAILED: ${error.split('\n')[0]}`);
      results.errors.push({ scenario, variant, error });
      return null;
    }
  };

  try {
    if (only.has('throughput')) {
      log(`saturation throughput (${plan.generators} generator processes)`);
      const found = new Map<string, number>();
      // The naive ws peer and the store floor are for reference only: the quick pass leaves them out.
      const servers: Variant[] = quick
        ? ['parley', 'ws', 'socketio']
        : ['parley', 'ws', 'socketio', 'naive-ws', 'ws-sqlite'];
      for (let rep = 1; rep <= reps; rep++)
        for (const layout of plan.layouts)
          for (const v of rotate<Variant>(servers, rep - 1)) {
            const key = `${v}/${layout.size}`;
            const r = await attempt('throughput', key, () =>
              runThroughputOnce(ctx, v, layout, rep, found.get(key)),
            );
            if (!r) continue;
            found.set(key, r.saturation);
            results.throughput.push(r);
            log(
              `  ${layout.rooms}×${layout.size} ${v} rep ${rep}: ${Math.round(r.saturation)} deliveries/s, ` +
                `${(r.cpuPer1000 * 1000).toFixed(1)} server CPU ms / 1k (gen ${r.generatorCpu.toFixed(2)} in ${r.generators ?? 1}, busiest ${(r.busiestGeneratorCpu ?? r.generatorCpu).toFixed(2)})`,
            );
          }
    }
    if (only.has('latency')) {
      log(`latency at ${LATENCY_RATE} msg/s`);
      const variants: Variant[] = [
        'parley',
        'parley-links',
        'parley-pg',
        'ws',
        'socketio',
        'parley-acks',
        'parley-pg-redis',
      ];
      for (let rep = 1; rep <= reps; rep++)
        for (const v of rotate(variants, rep - 1)) {
          // Acknowledging clients and two processes at this rate are illustrations, not budgets: once is enough,
          // and the quick pass leaves them out.
          if ((v === 'parley-acks' || v === 'parley-pg-redis') && (rep > 1 || quick)) continue;
          const r = await attempt('latency', v, () => runLatencyOnce(ctx, v, rep));
          if (!r) continue;
          results.latency.push(r);
          log(
            `  ${v} rep ${rep}: p50 ${r.latency.p50} p99 ${r.latency.p99} ms, lost ${r.lost}, dup ${r.duplicated}`,
          );
        }
    }
    if (only.has('latency') || only.has('redis')) {
      log(`one process against two over Redis (PostgreSQL), ${REDIS_RATE} msg/s`);
      for (let rep = 1; rep <= reps; rep++)
        for (const v of rotate<Variant>(['parley-pg', 'parley-pg-redis'], rep - 1)) {
          const r = await attempt('redis', v, () => runLatencyOnce(ctx, v, rep, REDIS_RATE));
          if (!r) continue;
          results.redis.push(r);
          log(
            `  ${v} rep ${rep}: p50 ${r.latency.p50} p99 ${r.latency.p99} ms, lost ${r.lost}, dup ${r.duplicated}`,
          );
        }
    }
    if (only.has('idle')) {
      log('idle connections');
      for (const v of idleVariants) {
        const r = await attempt('idle', v, () => runIdle(ctx, v, plan.idleGoal));
        if (!r) continue;
        results.idle.push(r);
        log(`  ${v}: ${r.connected} connected, ${r.kibPerConnection.toFixed(1)} KiB each`);
      }
    }
    if (only.has('churn')) {
      log('connect/disconnect churn');
      for (let rep = 1; rep <= reps; rep++)
        for (const v of rotate<Variant>(['parley', 'ws', 'socketio'], rep - 1)) {
          const r = await attempt('churn', v, () => runChurnOnce(ctx, v, rep));
          if (!r) continue;
          results.churn.push(r);
          log(`  ${v} rep ${rep}: ${Math.round(r.perSecond)} connections/s`);
        }
    }
    if (only.has('restart')) {
      log(`a process restart with ${plan.restartGoal} sockets reconnecting`);
      const r = await attempt('restart', 'parley', () => runRestart(ctx, plan.restartGoal));
      if (r) {
        results.restart = r;
        log(
          `  ${r.sockets} back ${r.allBackSeconds.toFixed(1)} s after SIGTERM (${Math.round(r.reconnectsPerSecond)}/s), lost ${r.lost}, dup ${r.duplicated}, unsent ${r.unsent}, gave up ${r.gaveUp}`,
        );
      }
    }
    if (only.has('history')) {
      log('history endpoint');
      results.history = await attempt('history', 'parley', () => runHistory(ctx, reps));
    }
    if (only.has('channels')) {
      log('channel directory and a long thread');
      results.channels = await attempt('channels', 'parley', () => runChannels(ctx, reps));
    }
    if (only.has('search')) {
      log('message search on a million messages');
      results.search = await attempt('search', 'parley', () => runSearch(ctx));
    }
  } finally {
    await redis.proc?.stop();
  }

  const background = [
    ...results.throughput.map((r) => r.background),
    ...results.latency.map((r) => r.background),
  ];
  results.contention.backgroundCoresMedian = spread(background).median;
  results.contention.backgroundCoresMax = background.length ? Math.max(...background) : 0;
  results.finishedAt = new Date().toISOString();
  results.durationSeconds = (Date.now() - started) / 1000;
  Object.assign(results, withIdleFrom(results));

  const dir = path.join(benchDir, 'results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${results.startedAt.replaceAll(':', '-').slice(0, 19)}.json`);
  fs.writeFileSync(file, `${JSON.stringify(results, null, 1)}\n`);
  const markdown = renderMarkdown(results);
  fs.writeFileSync(path.join(dir, 'latest.md'), markdown);
  if (writesDocs) fs.writeFileSync(path.join(repoDir, 'docs/benchmarks.md'), markdown);
  process.stdout.write(`\n${summary(results)}\n`);
  log(`results: ${path.relative(repoDir, file)}${writesDocs ? ' and docs/benchmarks.md' : ''}`);
  if (results.errors.length) process.exitCode = 1;
}

/** `--idle-from bench/results/<file>.json`: that run's idle rows (a virtual machine's) in place of this one's. */
function withIdleFrom(results: Results): Results {
  const from = args['idle-from'];
  return from ? withIdleRuns(results, JSON.parse(fs.readFileSync(from, 'utf8')) as Results) : results;
}

/** `--render bench/results/<file>.json`: the Markdown again from a stored result (after editing findings.md). */
function render(file: string) {
  const results = withIdleFrom(JSON.parse(fs.readFileSync(file, 'utf8')) as Results);
  const markdown = renderMarkdown(results);
  fs.writeFileSync(path.join(repoDir, 'docs/benchmarks.md'), markdown);
  process.stdout.write(`${summary(results)}\ndocs/benchmarks.md rewritten from ${file}\n`);
}

if (args.render) render(args.render);
else await main();
