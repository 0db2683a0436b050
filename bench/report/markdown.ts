import fs from 'node:fs';
import path from 'node:path';
import { benchDir } from '../lib/proc';
import { fmt, fmtSpread, spread } from '../lib/stats';
import { LATENCY_RATE } from '../scenarios/latency';
import { budgetRows, COLUMNS } from './budgets';
import { channelsSection } from './channels-section';
import { AT_ONE_CORE } from './checks';
import { connectionsSections } from './connections-section';
import { historySection } from './history-section';
import { latencySections } from './latency-section';
import { table } from './markdown-cells';
import type { Results } from './results';
import { CONTENDED_CORES } from './runs';
import { searchSection } from './search-section';
import { throughputSection } from './throughput-section';

// The Markdown report, docs/benchmarks.md: the run and its machine, what is measured and how to run it
// (bench/report/about.md), DESIGN §8's figures beside their budgets and the peers, where Parley's time goes now
// (bench/report/where-time-goes.md), then every run's numbers. The dated lab notes behind the prose are in
// bench/findings/; the report stays reference, at most 260 lines for a whole run (markdown.test.ts).

export interface RenderOptions {
  /** The search section's query plans (bench/results/latest.md; the JSON keeps them either way). */
  plans?: boolean;
}

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

/** A hand-written part of the report, bench/report/<name>, without its trailing blank lines. */
function prose(name: string): string[] {
  const file = path.join(benchDir, 'report', name);
  return fs.existsSync(file) ? [fs.readFileSync(file, 'utf8').trim(), ''] : [];
}

function header(results: Results): string[] {
  const m = results.machine;
  const c = results.contention;
  return [
    '# Benchmarks',
    '',
    `Latest figures from \`npm run bench${results.quick ? ' -- --quick' : ''}\`, ${results.startedAt.slice(0, 16).replace('T', ' ')} UTC ` +
      `(${fmt(results.durationSeconds / 60, 1)} min), commit \`${results.git.commit.slice(0, 10)}\`${results.git.dirty ? ' with uncommitted changes' : ''}. ` +
      'The full JSON (HDR histograms included) is written to `bench/results/`; how the suite works is in `bench/README.md`.',
    '',
    `**Machine:** ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB RAM, Node ${m.node}, ${m.os}; open files limit ${m.fdLimit}. ` +
      'Servers, load generators, PostgreSQL and Redis share these cores, all on loopback. ' +
      `**Contention:** load average ${c.loadAverageAtStart.map((x) => x.toFixed(1)).join(' / ')} at the start; work that was not ` +
      `the bench's took ${fmt(c.backgroundCoresMedian, 2)} cores in the median measured window (at most ${fmt(c.backgroundCoresMax, 2)}).` +
      (c.backgroundCoresMax > 0.3
        ? ' Figures from busy windows are noisier and lower; the spreads below show it.'
        : ''),
    '',
  ];
}

function budgetSection(results: Results): string[] {
  return [
    '## DESIGN §8 budgets',
    '',
    'Figures are medians of alternated repetitions, with min–max in brackets; ratios are paired run by run. ' +
      `Runs during which other work kept more than ${CONTENDED_CORES} of a core busy ("bg", marked †) are left out ` +
      'of a figure when every server kept an undisturbed run. "Reason" is the comparison that decided the result; ' +
      `"Limited by" names the side that was at one core (≥ ${AT_ONE_CORE}) while the figure was measured — the ` +
      'server, the load generator, both or neither — with the server’s / the generator’s cores. Why the figures ' +
      'are what they are: [Where time goes now](#where-time-goes-now) below.',
    '',
    budgetTable(results),
    '',
  ];
}

export function renderMarkdown(results: Results, options: RenderOptions = {}): string {
  const out = [
    ...header(results),
    ...prose('about.md'),
    ...budgetSection(results),
    ...prose('where-time-goes.md'),
    ...throughputSection(results),
    ...latencySections(results),
    ...connectionsSections(results),
    ...historySection(results),
    ...channelsSection(results),
    ...searchSection(results, options.plans ?? false),
  ];
  if (results.errors.length) {
    out.push('## Runs that failed', '');
    for (const e of results.errors) out.push(`- ${e.scenario} / ${e.variant}: ${e.error.split('\n')[0]}`);
    out.push('');
  }
  return `${out.join('\n')}\n`;
}

/** The budget table alone, for the terminal. */
export function summary(results: Results): string {
  const lat = spread(results.latency.filter((r) => r.variant === 'parley').map((r) => r.latency.p99));
  return `${budgetTable(results)}\n\nParley p99 at ${LATENCY_RATE} msg/s: ${fmtSpread(lat, 1, ' ms')}\n`;
}
