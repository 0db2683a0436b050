import { fmt } from '../lib/stats';
import { LATENCY_RATE, REDIS_RATE } from '../scenarios/latency';
import { variantLabel } from '../targets';
import { contended, opt, table } from './markdown-cells';
import type { Results } from './results';

// The report's sections on delivery latency: every server at LATENCY_RATE, and one Parley process against two
// over Redis at REDIS_RATE.
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

export function latencySections(results: Results): string[] {
  const out: string[] = [];
  if (results.latency.length) {
    out.push(
      '## Delivery latency',
      '',
      `100 rooms × 10 members, ${LATENCY_RATE} messages/s in (${fmt(LATENCY_RATE * 10)} deliveries/s), open loop; latency from each ` +
        'message’s scheduled send time to its arrival at each member; lost = expected − unique after a drain. ' +
        'Acknowledging clients and two processes run once at this rate; CPU sums all server processes; for ' +
        'PostgreSQL runs "bg" includes PostgreSQL’s own work, so they are never left out.',
      '',
      latencyTable(results.latency),
      '',
    );
  }
  if (results.redis?.length) {
    out.push(
      '## One process against two over Redis',
      '',
      `Parley on PostgreSQL, 100 rooms × 10, ${REDIS_RATE} messages/s in; with two processes the members of every room ` +
        'alternate between them, so half of all deliveries cross processes. Both processes’ CPU is summed; ' +
        '"bg" includes PostgreSQL’s and Redis’s work.',
      '',
      latencyTable(results.redis),
      '',
    );
  }
  return out;
}
