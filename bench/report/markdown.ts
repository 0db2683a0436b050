import fs from 'node:fs';
import path from 'node:path';
import { benchDir } from '../lib/proc';
import { fmt, fmtSpread, spread } from '../lib/stats';
import { LATENCY_RATE, REDIS_RATE } from '../scenarios/latency';
import { variantLabel } from '../targets';
import { historyServerLabel } from './budget-row';
import { budgetRows, COLUMNS } from './budgets';
import { AT_ONE_CORE } from './checks';
import type { Results } from './results';
import { CONTENDED_CORES } from './runs';
import { searchSection } from './search-section';

// The Markdown report: DESIGN §8's figures beside their budgets and the peers, then every run's numbers,
// then the hand-written findings (bench/report/findings.md).
const table = (head: string[], rows: (string | number)[][]) =>
  [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.map((c) => String(c).replaceAll('|', '\\|')).join(' | ')} |`),
  ].join('\n');

const opt = (x: number | null, d = 1) => (x === null ? '–' : fmt(x, d));
const contended = (cores: number) => `${fmt(cores, 2)}${cores > CONTENDED_CORES ? ' †' : ''}`;

export function budgetTable(results: Results): string {
  return table(
    [
      'DESIGN §8',
      'Budget',
      COLUMNS.parley,
      COLUMNS.ws,
      COLUMNS.socketio,
      'Parley ÷ peer',
      'Result',
      'Reason',
      'Limited by',
    ],
    budgetRows(results).map((r) => [
      r.what,
      r.budget,
      r.parley,
      r.ws,
      r.socketio,
      r.ratio,
      `**${r.verdict}**`,
      r.reason,
      r.limitedBy,
    ]),
  );
}

export function renderMarkdown(results: Results): string {
  const m = results.machine;
  const c = results.contention;
  const out: string[] = [];
  out.push('# Benchmarks');
  out.push('');
  out.push(
    `Latest figures from \`npm run bench${results.quick ? ' -- --quick' : ''}\`, ${results.startedAt.slice(0, 16).replace('T', ' ')} UTC ` +
      `(${fmt(results.durationSeconds / 60, 1)} min), commit \`${results.git.commit.slice(0, 10)}\`${results.git.dirty ? ' with uncommitted changes' : ''}. ` +
      'The full JSON (HDR histograms included) is written to `bench/results/`; how the suite works is in `bench/README.md`.',
  );
  out.push('');
  out.push(
    `**Machine:** ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB RAM, Node ${m.node}, ${m.os}; open files limit ${m.fdLimit}. ` +
      'Servers, load generators, PostgreSQL and Redis share these cores, all on loopback.',
  );
  out.push('');
  out.push(
    `**Contention:** load average ${c.loadAverageAtStart.map((x) => x.toFixed(1)).join(' / ')} at the start; work that was not ` +
      `the bench's took ${fmt(c.backgroundCoresMedian, 2)} cores in the median measured window (at most ${fmt(c.backgroundCoresMax, 2)}).` +
      (c.backgroundCoresMax > 0.3
        ? ' Figures from busy windows are noisier and lower; the spreads below show it.'
        : ''),
  );
  out.push('');
  out.push('## DESIGN §8 budgets');
  out.push('');
  out.push(
    'Figures are medians of alternated repetitions, with min–max in brackets; ratios are paired run by run. ' +
      `Runs during which other work kept more than ${CONTENDED_CORES} of a core busy ("bg", marked †) are left out ` +
      'of a figure when every server kept an undisturbed run. "Reason" is the comparison that decided the result; ' +
      `"Limited by" names the side that was at one core (≥ ${AT_ONE_CORE}) while the figure was measured — the ` +
      'server, the load generator, both or neither — with the server’s / the generator’s cores. Why the figures ' +
      'are what they are: [Findings, the budget rows](#the-budget-rows) below.',
  );
  out.push('');
  out.push(budgetTable(results));
  out.push('');

  if (results.throughput.length) {
    out.push('## Saturation throughput');
    out.push('');
    const step = results.throughput.find((r) => r.step)?.step;
    const counted = step
      ? `Steps of ${fmt(step.seconds, 1)} s, each counted over its last ${fmt(step.seconds - step.settleSeconds, 1)} s: ` +
        'its first arrivals, while the queue settles at the new rate, would count a deeper queue’s fill as lost ' +
        'throughput. '
      : 'Steps of 1.5 s (1 s in a quick run), counted from their start. ';
    out.push(
      'Open-loop ramp (×2 per step the first time, then ×1.25 from 0.6 × what the first found) until two steps ' +
        'in a row deliver under 90% of what they offer or their p99 passes 1 s; the figure is the best step. ' +
        counted +
        'Deliveries = messages × room members (the sender gets its echo). "gen" is the generator’s CPU in cores: ' +
        'near 1.0 means the figure is the generator’s ceiling, not the server’s. "Connect s" is the time to open ' +
        'and join every member’s socket. Each step shows the server’s CPU ms per 1,000 deliveries in brackets ' +
        'where recorded: it falls as the load rises, for every server, so two servers’ figures compare at the ' +
        'same offered rate, not each at its own saturation.',
    );
    out.push('');
    out.push(
      table(
        [
          'Rooms',
          'Server',
          'Rep',
          'Deliveries/s',
          'Msgs/s in',
          'CPU ms / 1k deliv.',
          'ELD p99 ms',
          'RSS MiB',
          'gen',
          'bg cores',
          'Connect s',
          'Steps (in → delivered/s [CPU ms / 1k])',
        ],
        results.throughput.map((r) => [
          `${r.rooms} × ${r.roomSize}`,
          variantLabel[r.variant],
          r.rep,
          fmt(r.saturation),
          fmt(r.inputRate),
          fmt(r.cpuPer1000 * 1000, 1),
          opt(r.eldP99),
          fmt(r.rssMiB),
          fmt(r.generatorCpu, 2),
          contended(r.background),
          fmt(r.connectSeconds, 1),
          r.steps
            .map(
              (s) =>
                `${fmt(s.rate)}→${fmt(s.delivered)}` +
                (s.cpuMsPer1000 === undefined ? '' : ` [${fmt(s.cpuMsPer1000, 1)}]`),
            )
            .join(', '),
        ]),
      ),
    );
    out.push('');
  }

  const latencyTable = (runs: Results['latency']) =>
    table(
      [
        'Server',
        'Rep',
        'p50 ms',
        'p95 ms',
        'p99 ms',
        'max ms',
        'Lost',
        'Dup',
        'CPU ms / 1k deliv.',
        'ELD p99 / max ms',
        'RSS MiB',
        'bg cores',
      ],
      runs.map((r) => [
        variantLabel[r.variant],
        r.rep,
        fmt(r.latency.p50, 1),
        fmt(r.latency.p95, 1),
        fmt(r.latency.p99, 1),
        fmt(r.latency.max, 1),
        r.lost,
        r.duplicated,
        fmt(r.cpuPer1000 * 1000, 1),
        `${opt(r.eldP99)} / ${opt(r.eldMax)}`,
        fmt(r.rssMiB),
        contended(r.background),
      ]),
    );

  if (results.latency.length) {
    out.push('## Delivery latency');
    out.push('');
    out.push(
      `100 rooms × 10 members, ${LATENCY_RATE} messages/s in (${fmt(LATENCY_RATE * 10)} deliveries/s), open loop; latency from each ` +
        'message’s scheduled send time to its arrival at each member; lost = expected − unique after a drain. ' +
        'Acknowledging clients and two processes run once at this rate; CPU sums all server processes; for ' +
        'PostgreSQL runs "bg" includes PostgreSQL’s own work, so they are never left out.',
    );
    out.push('');
    out.push(latencyTable(results.latency));
    out.push('');
  }

  if (results.redis?.length) {
    out.push('## One process against two over Redis');
    out.push('');
    out.push(
      `Parley on PostgreSQL, 100 rooms × 10, ${REDIS_RATE} messages/s in; with two processes the members of every room ` +
        'alternate between them, so half of all deliveries cross processes. Both processes’ CPU is summed; ' +
        '"bg" includes PostgreSQL’s and Redis’s work.',
    );
    out.push('');
    out.push(latencyTable(results.redis));
    out.push('');
  }

  if (results.idle.length) {
    out.push('## Idle connections');
    out.push('');
    out.push(
      'Authenticated notification sockets held open on one server process, opened from several generator processes ' +
        'and loopback source addresses. RSS per connection = (RSS after − RSS before) / n, both after a forced GC.',
    );
    out.push('');
    out.push(
      table(
        [
          'Server',
          'Goal',
          'Attempted (fd limit)',
          'Connected',
          'Failed',
          'Opened/s',
          'RSS before → after MiB',
          'KiB / conn',
          'Heap KiB / conn',
        ],
        results.idle.map((r) => [
          `${variantLabel[r.variant]}${r.machine ? ' †' : ''}`,
          fmt(r.goal),
          `${fmt(r.attempted)} (${fmt(r.fdLimit)})`,
          fmt(r.connected),
          r.failed,
          fmt(r.connectionsPerSecond),
          `${fmt(r.rssBeforeMiB)} → ${fmt(r.rssAfterMiB)}`,
          fmt(r.kibPerConnection, 1),
          fmt(r.heapKibPerConnection, 1),
        ]),
      ),
    );
    const elsewhere = results.idle.find((r) => r.machine)?.machine;
    if (elsewhere) {
      out.push('');
      out.push(
        `† Measured in ${elsewhere}, where the open-files limit can be raised past this machine's; the count and ` +
          'the memory per connection are the same code doing the same work, the rate of opening is not comparable.',
      );
    }
    out.push('');
  }

  if (results.churn.length) {
    out.push('## Connect/disconnect churn');
    out.push('');
    out.push(
      '50 workers: open an authenticated notification socket, wait for its first frame, close it politely, repeat.',
    );
    out.push('');
    out.push(
      table(
        ['Server', 'Rep', 'Connections/s', 'Setup p50 / p99 ms', 'Server CPU ms / conn', 'Failed'],
        results.churn.map((r) => [
          variantLabel[r.variant],
          r.rep,
          fmt(r.perSecond),
          `${fmt(r.setup.p50, 1)} / ${fmt(r.setup.p99, 1)}`,
          fmt(r.cpuMsPerConnection, 2),
          r.failed,
        ]),
      ),
    );
    out.push('');
  }

  const restart = results.restart;
  if (restart) {
    out.push('## A process restart');
    out.push('');
    out.push(
      `Parley on SQLite holds ${fmt(restart.sockets)} sockets (20 rooms of 10 where one member of each sends 5 messages a second, ` +
        'notification sockets for everyone else) from clients that reconnect as the web app does (after a 1012 at once, ' +
        'otherwise 3 s later, five attempts in a row at most), resend what was not confirmed with the same client_id and ' +
        'catch up over HTTP after each reconnect. The process is stopped with SIGTERM and started again on the same port. ' +
        "Lost: a message in the room's history that a member had neither live nor from a catch-up.",
    );
    out.push('');
    out.push(
      table(
        [
          'Sockets (fd limit)',
          'Opened in s',
          'Stop s',
          'Start s',
          'All back after SIGTERM s',
          'Herd s',
          'Reconnections/s',
          'Gave up',
          'Messages sent',
          'Lost / doubled / unsent',
        ],
        [
          [
            `${fmt(restart.sockets)} (${fmt(restart.fdLimit)})`,
            fmt(restart.connectSeconds, 1),
            fmt(restart.stopSeconds, 1),
            fmt(restart.startSeconds, 1),
            fmt(restart.allBackSeconds, 1),
            fmt(restart.herdSeconds, 1),
            fmt(restart.reconnectsPerSecond),
            fmt(restart.gaveUp),
            fmt(restart.sent),
            `${fmt(restart.lost)} / ${fmt(restart.duplicated)} / ${fmt(restart.unsent)}`,
          ],
        ],
      ),
    );
    out.push('');
  }

  if (results.history?.runs.length) {
    out.push('## History endpoint');
    out.push('');
    out.push(
      `autocannon, 20 connections, GET /api/chats/{chat_id}/messages/ (50 messages, ${fmt(results.history.pageBytes / 1024, 1)} KiB of JSON) ` +
        'with a bearer session token, against two bare Fastify routes: one reading the same 50 rows from the same ' +
        'SQLite file with one prepared statement, one returning the same JSON as a constant.',
    );
    out.push('');
    out.push(
      table(
        ['Server', 'Rep', 'Requests/s', 'p50 / p99 ms', 'Server CPU ms / 1k req', 'Errors + non-2xx'],
        results.history.runs.map((r) => [
          historyServerLabel[r.server],
          r.rep,
          fmt(r.requestsPerSecond),
          `${r.latencyP50} / ${r.latencyP99}`,
          fmt(r.cpuMsPer1000),
          r.errors + r.non2xx,
        ]),
      ),
    );
    out.push('');
    const catchUp = results.history.catchUp ?? [];
    if (catchUp.length) {
      out.push(
        'Catch-up after a reconnect, on the same Parley: the web app’s own catch-up (its loaded stretch read again, ' +
          'then everything after it, 100 messages a request), timed over several catch-ups back to back.',
      );
      out.push('');
      out.push(
        table(
          ['Rep', 'Missed + loaded', 'Requests', 'Server CPU ms', 'Wall ms'],
          catchUp.map((c) => [
            c.rep,
            `${fmt(c.missed)} + ${fmt(c.loaded)}`,
            c.requests,
            fmt(c.serverCpuMs, 1),
            fmt(c.wallMs, 1),
          ]),
        ),
      );
      out.push('');
    }
  }

  out.push(...searchSection(results));

  if (results.errors.length) {
    out.push('## Runs that failed');
    out.push('');
    for (const e of results.errors) out.push(`- ${e.scenario} / ${e.variant}: ${e.error.split('\n')[0]}`);
    out.push('');
  }

  const findings = path.join(benchDir, 'report/findings.md');
  if (fs.existsSync(findings)) out.push(fs.readFileSync(findings, 'utf8').trim(), '');
  return `${out.join('\n')}\n`;
}

/** The budget table alone, for the terminal. */
export function summary(results: Results): string {
  const lat = spread(results.latency.filter((r) => r.variant === 'parley').map((r) => r.latency.p99));
  return `${budgetTable(results)}\n\nParley p99 at ${LATENCY_RATE} msg/s: ${fmtSpread(lat, 1, ' ms')}\n`;
}
