import type { Machine } from '../lib/machine';
import type { CatchUpRun } from '../scenarios/catch-up';
import type { ChannelsResult } from '../scenarios/channels';
import type { ChurnRun } from '../scenarios/churn';
import type { IdleRun } from '../scenarios/idle';
import type { LatencyRun } from '../scenarios/latency';
import type { PageRun } from '../scenarios/page-load';
import type { RestartRun } from '../scenarios/restart';
import type { SearchResult } from '../scenarios/search';
import type { ThroughputRun } from '../scenarios/throughput';
import type { WebSize } from './web-size';

// The JSON result of one `npm run bench` (bench/results/<timestamp>.json).
export interface Results {
  startedAt: string;
  finishedAt: string;
  durationSeconds: number;
  quick: boolean;
  machine: Machine;
  git: { commit: string; dirty: boolean };
  /** Load average when the run started, and the busiest background seen during it (cores). */
  contention: { loadAverageAtStart: number[]; backgroundCoresMedian: number; backgroundCoresMax: number };
  throughput: ThroughputRun[];
  latency: LatencyRun[];
  /** One Parley process on PostgreSQL against two over Redis, at REDIS_RATE. */
  redis: LatencyRun[];
  idle: IdleRun[];
  churn: ChurnRun[];
  /** A process restart under 20,000 reconnecting sockets. */
  restart?: RestartRun | null;
  /** The history page; `catchUp` is absent from results written before it was measured. */
  history: { runs: PageRun[]; pageBytes: number; catchUp?: CatchUpRun[] } | null;
  /** The channel directory and a long thread's first page; absent from results written before the scenario. */
  channels?: ChannelsResult | null;
  /** Message search on the million-message corpus; absent from results written before the scenario existed. */
  search?: SearchResult | null;
  web: WebSize | null;
  errors: { scenario: string; variant: string; error: string }[];
}

/**
 * `results` with `other`'s idle runs in place of its own for the same servers: a virtual machine's run
 * (`npm run bench:vm`), where 100,000 connections fit under its open-files limit, in a whole run's report.
 */
export function withIdleRuns(results: Results, other: Pick<Results, 'idle'>): Results {
  const order = ['parley', 'ws', 'socketio'];
  const replaced = new Set(other.idle.map((r) => r.variant));
  const idle = [...other.idle, ...results.idle.filter((r) => !replaced.has(r.variant))];
  return { ...results, idle: idle.sort((a, b) => order.indexOf(a.variant) - order.indexOf(b.variant)) };
}

/** A result before any scenario ran: what the runner knows at the start, every list empty. */
export function emptyResults(
  start: Pick<Results, 'startedAt' | 'quick' | 'machine' | 'git' | 'web'>,
  loadAverage: number[],
): Results {
  return {
    ...start,
    finishedAt: '',
    durationSeconds: 0,
    contention: { loadAverageAtStart: loadAverage, backgroundCoresMedian: 0, backgroundCoresMax: 0 },
    throughput: [],
    latency: [],
    redis: [],
    idle: [],
    churn: [],
    history: null,
    channels: null,
    search: null,
    errors: [],
  };
}
