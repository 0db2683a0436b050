import { fmt } from '../lib/stats';
import { variantLabel } from '../targets';
import { contended, opt, table } from './markdown-cells';
import type { Results } from './results';

// The report's section on saturation throughput: every server's ramp, repetition by repetition.
export function throughputSection(results: Results): string[] {
  if (!results.throughput.length) return [];
  const step = results.throughput.find((r) => r.step)?.step;
  const counted = step
    ? `Steps of ${fmt(step.seconds, 1)} s, each counted over its last ${fmt(step.seconds - step.settleSeconds, 1)} s: ` +
      'its first arrivals, while the queue settles at the new rate, would count a deeper queue’s fill as lost ' +
      'throughput. '
    : 'Steps of 1.5 s (1 s in a quick run), counted from their start. ';
  return [
    '## Saturation throughput',
    '',
    'Open-loop ramp (×2 per step the first time, then ×1.25 from 0.6 × what the first found) until two steps ' +
      'in a row deliver under 90% of what they offer or their p99 passes 1 s; the figure is the best step. ' +
      counted +
      'Deliveries = messages × room members (the sender gets its echo). "gen" is the generator’s CPU in cores: ' +
      'near 1.0 means the figure is the generator’s ceiling, not the server’s. "Connect s" is the time to open ' +
      'and join every member’s socket. Each step shows the server’s CPU ms per 1,000 deliveries in brackets ' +
      'where recorded: it falls as the load rises, for every server, so two servers’ figures compare at the ' +
      'same offered rate, not each at its own saturation.',
    '',
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
    '',
  ];
}
