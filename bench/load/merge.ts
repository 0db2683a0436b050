import * as hdr from 'hdr-histogram-js';
import type { PhaseResult, RateJob, RateResult } from './ipc';
import { encodeHistogram, newHistogram, percentiles } from './rate-job';

// Several generator processes sharing one rate job: each gets every n-th room and its share of the rate, and
// their phases and results are merged back into what one generator would have reported (counts summed,
// HDR histograms added, generator CPU summed with the busiest process kept beside it).

/** The job of generator `index` of `count`: rooms index, index + count, …, at the rate their share carries. */
export function shareOf(job: RateJob, index: number, count: number): RateJob {
  const rooms = job.rooms.filter((_, r) => r % count === index);
  const part = rooms.length / job.rooms.length;
  const scale = (p: { rate: number; seconds: number }) => ({ ...p, rate: p.rate * part });
  return { ...job, rooms, warmup: scale(job.warmup), phases: job.phases.map(scale), coordinated: true };
}

function addAll(encoded: (string | undefined)[]) {
  const sum = newHistogram();
  for (const e of encoded) if (e) sum.add(hdr.decodeFromCompressedBase64(e));
  return sum;
}

const total = <T>(parts: T[], pick: (p: T) => number) => parts.reduce((n, p) => n + pick(p), 0);

/** One phase of every generator as one: rates, sends and deliveries summed, latencies from the added histograms. */
export function mergePhases(parts: PhaseResult[]): PhaseResult {
  const first = parts[0];
  if (!first) throw new Error('no phase to merge');
  if (parts.length === 1) return { ...first, histograms: undefined };
  const bySend = parts.map((p) => p.histograms?.bySend);
  return {
    label: first.label,
    rate: total(parts, (p) => p.rate),
    seconds: Math.max(...parts.map((p) => p.seconds)),
    sent: total(parts, (p) => p.sent),
    deliveredPerSecond: total(parts, (p) => p.deliveredPerSecond),
    // While a phase is under way only its arrivals' histogram travels; its by-send one comes with the result.
    latency: bySend.every(Boolean) ? percentiles(addAll(bySend)) : first.latency,
    arrivalLatency: percentiles(addAll(parts.map((p) => p.histograms?.byArrival))),
    generatorCpu: total(parts, (p) => p.generatorCpu),
    busiestGeneratorCpu: Math.max(...parts.map((p) => p.busiestGeneratorCpu)),
  };
}

/** Every generator's result as one run's. */
export function mergeResults(parts: RateResult[]): RateResult {
  const first = parts[0];
  if (!first) throw new Error('no result to merge');
  const sum = (pick: (r: RateResult) => number) => total(parts, pick);
  return {
    mode: 'rate',
    connectSeconds: Math.max(...parts.map((r) => r.connectSeconds)),
    sockets: sum((r) => r.sockets),
    phases: first.phases.map((_, i) => mergePhases(parts.map((r) => r.phases[i] as PhaseResult))),
    expected: sum((r) => r.expected),
    unique: sum((r) => r.unique),
    lost: sum((r) => r.lost),
    duplicated: sum((r) => r.duplicated),
    misrouted: sum((r) => r.misrouted),
    errorFrames: sum((r) => r.errorFrames),
    closedEarly: sum((r) => r.closedEarly),
    histogram: parts.length === 1 ? first.histogram : encodeHistogram(addAll(parts.map((r) => r.histogram))),
  };
}
