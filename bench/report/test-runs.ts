import type { CatchUpRun } from '../scenarios/catch-up';
import type { ChannelsPage, ChannelsResult } from '../scenarios/channels';
import type { ChurnRun } from '../scenarios/churn';
import type { IdleRun } from '../scenarios/idle';
import type { LatencyRun } from '../scenarios/latency';
import type { PageRun } from '../scenarios/page-load';
import type { RestartRun } from '../scenarios/restart';
import type { SearchDialectRun, SearchResult } from '../scenarios/search';
import type { ThroughputRun } from '../scenarios/throughput';
import type { Timings } from '../search/measure';
import type { Variant } from '../targets';
import type { Results } from './results';
import { testResults } from './test-results';

// Made-up runs of every scenario for the report's tests, and a whole run made of them.

/**
 * A saturation run: `cpuMs` per 1,000 deliveries, so its server used cpuMs × deliveries/s ÷ 10⁶ cores; `gen` the
 * generator's cores (one process unless `over` says otherwise).
 */
export function sat(
  variant: Variant,
  rep: number,
  saturation: number,
  cpuMs: number,
  gen: number,
  bg = 0,
  over: Partial<ThroughputRun> = {},
): ThroughputRun {
  return {
    variant,
    roomSize: 10,
    rooms: 100,
    rep,
    saturation,
    inputRate: saturation / 10,
    cpuPer1000: cpuMs / 1000,
    eldP99: 1,
    rssMiB: 100,
    generatorCpu: gen,
    generatorBound: gen > 0.9,
    background: bg,
    steps: [],
    lost: 0,
    duplicated: 0,
    closedEarly: 0,
    connectSeconds: 1,
    ...over,
  };
}

export function lat(variant: Variant, rep: number, p99: number, over: Partial<LatencyRun> = {}): LatencyRun {
  return {
    variant,
    rep,
    rate: 500,
    latency: { count: 30_000, p50: p99 / 3, p95: p99 / 2, p99, max: p99 * 2, mean: p99 / 3 },
    deliveredPerSecond: 5000,
    expected: 30_000,
    lost: 0,
    duplicated: 0,
    errorFrames: 0,
    closedEarly: 0,
    cpuPer1000: 0.088,
    eldP99: 3.5,
    eldMax: 5,
    rssMiB: 160,
    generatorCpu: 0.21,
    background: 0,
    histogram: '',
    ...over,
  };
}

export function idle(over: Partial<IdleRun> = {}): IdleRun {
  return {
    variant: 'parley',
    goal: 20_000,
    attempted: 20_000,
    connected: 20_000,
    failed: 0,
    firstError: null,
    fdLimit: 65_536,
    connectSeconds: 10,
    connectionsPerSecond: 2000,
    rssBeforeMiB: 136,
    rssAfterMiB: 352,
    kibPerConnection: 11.1,
    heapKibPerConnection: 9.1,
    ...over,
  };
}

/** A page's run: `cpuMs` server CPU ms per 1,000 requests; `load` autocannon's cores, where recorded. */
export const page = (
  server: PageRun['server'],
  rep: number,
  rps: number,
  cpuMs: number,
  load?: number,
): PageRun => ({
  server,
  rep,
  requestsPerSecond: rps,
  latencyP50: 12,
  latencyP99: 28,
  errors: 0,
  non2xx: 0,
  total: rps * 3,
  cpuMsPer1000: cpuMs,
  ...(load === undefined ? {} : { loadCpu: load }),
});

/** The channels scenario's result: `runs` of its pages as `[page, server, rep, rps, cpuMs, load?]`. */
export const channelsResult = (
  ...runs: (readonly [ChannelsPage, PageRun['server'], number, number, number, number?])[]
): ChannelsResult => ({
  channels: 1_000,
  threadReplies: 10_000,
  query: 'garden',
  pages: [
    { page: 'directory', path: '/api/channels/', bytes: 5_600 },
    { page: 'search', path: '/api/channels/?q=garden', bytes: 5_900 },
    { page: 'thread', path: '/api/chats/abc/messages/1/thread/', bytes: 27_000 },
  ],
  runs: runs.map(([p, server, rep, rps, cpuMs, load]) => ({
    ...page(server, rep, rps, cpuMs, load),
    page: p,
  })),
});

export const restartRun = (over: Partial<RestartRun> = {}): RestartRun => ({
  goal: 20_000,
  sockets: 20_000,
  fdLimit: 65_536,
  connectSeconds: 7.4,
  stopSeconds: 3.6,
  startSeconds: 0.9,
  allBackSeconds: 15.2,
  herdSeconds: 10.6,
  reconnectsPerSecond: 1887,
  reconnects: 20_000,
  gaveUp: 0,
  sent: 1080,
  expected: 10_800,
  lost: 0,
  duplicated: 0,
  unsent: 0,
  firstError: null,
  ...over,
});

const churn = (variant: Variant, rep: number, perSecond: number): ChurnRun => ({
  variant,
  rep,
  perSecond,
  failed: 0,
  firstError: null,
  setup: { count: 1000, p50: 9, p95: 15, p99: 18, max: 30, mean: 10 },
  cpuMsPerConnection: 0.2,
  generatorCpu: 0.8,
});

const catchUp = (rep: number): CatchUpRun => ({
  rep,
  missed: 1000,
  loaded: 50,
  requests: 12,
  walks: 20,
  serverCpuMs: 6,
  wallMs: 14,
});

export const timings = (p50: number, p95: number, over: Partial<Timings> = {}): Timings => ({
  p50,
  p95,
  max: p95 * 2,
  n: 400,
  byShape: { common: { p50, p95, n: 70 }, from: { p50, p95: p95 * 1.5, n: 60 } },
  slowest: { shape: 'from', q: 'the', from: 'search_u2', ms: p95 * 2 },
  meanHits: 12,
  backgroundCores: 0.1,
  serverCpuSeconds: null,
  seconds: 10,
  ...over,
});

export const searchRun = (
  dialect: SearchDialectRun['dialect'],
  httpP95: number,
  over: Partial<SearchDialectRun> = {},
): SearchDialectRun => ({
  dialect,
  http: timings(5, httpP95, { serverCpuSeconds: 4 }),
  sql: timings(2, httpP95 / 2),
  like: timings(30, 90),
  index: {
    dialect,
    messages: 1_000_000,
    indexBytes: 35 * 1_048_576,
    indexBytesPerMillion: 35 * 1_048_576,
    totalBytes: 175 * 1_048_576,
    withoutBytes: 140 * 1_048_576,
    parts: {},
  },
  plan: null,
  ...over,
});

export const searchResult = (...runs: SearchDialectRun[]): SearchResult => ({
  corpus: {
    messages: 1_000_000,
    chats: 5_000,
    people: 2_000,
    searcherChats: 50,
    version: 1,
    generatedSeconds: { sqlite: null, postgres: null },
  },
  queries: 200,
  timedPasses: 2,
  runs,
});

/** A plan of `lines` lines, as long as PostgreSQL's EXPLAIN of the slowest query tends to be. */
const plan = (lines: number) => ({
  query: { shape: 'common' as const, q: 'are' },
  ms: 20,
  text: Array.from({ length: lines }, (_, i) => `step ${i}`).join('\n'),
});

/** Every scenario of the full plan, three repetitions each, as a whole `npm run bench` writes them. */
export function wholeRun(): Results {
  const reps = [1, 2, 3];
  const layouts = [
    { rooms: 100, roomSize: 10 },
    { rooms: 10, roomSize: 100 },
    { rooms: 2, roomSize: 1000 },
  ];
  const servers: Variant[] = ['parley', 'ws', 'socketio', 'naive-ws', 'ws-sqlite'];
  const steps = [800, 1_600, 3_200, 6_400, 12_800, 25_600].map((rate) => ({
    rate,
    delivered: rate * 10,
    p99: 5,
    generatorCpu: 0.5,
    cpuMsPer1000: 10,
  }));
  const latencyServers: Variant[] = ['parley', 'parley-pg', 'ws', 'socketio'];
  return testResults({
    throughput: reps.flatMap((rep) =>
      layouts.flatMap((layout) => servers.map((v) => sat(v, rep, 150_000, 6, 0.5, 0, { ...layout, steps }))),
    ),
    latency: [
      ...reps.flatMap((rep) => latencyServers.map((v) => lat(v, rep, 7))),
      lat('parley-acks', 1, 9),
      lat('parley-pg-redis', 1, 12),
    ],
    redis: reps.flatMap((rep) => [lat('parley-pg', rep, 11, { rate: 200 }), lat('parley-pg-redis', rep, 13)]),
    idle: (['parley', 'ws', 'socketio'] as const).map((variant) => idle({ variant })),
    churn: reps.flatMap((rep) => [
      churn('parley', rep, 4_400),
      churn('ws', rep, 6_500),
      churn('socketio', rep, 2_900),
    ]),
    restart: restartRun(),
    history: {
      pageBytes: 23_800,
      runs: reps.flatMap((rep) => [
        page('parley', rep, 6_900, 144),
        page('fastify', rep, 15_000, 65),
        page('fastify-sqlite', rep, 3_000, 330),
      ]),
      catchUp: reps.map(catchUp),
    },
    channels: channelsResult(
      ...reps.flatMap((rep) =>
        (['directory', 'search', 'thread'] as const).flatMap((p) => [
          [p, 'parley', rep, 1_200, 800] as const,
          [p, 'fastify-sqlite', rep, 1_500, 650] as const,
          [p, 'fastify', rep, 9_000, 110] as const,
        ]),
      ),
    ),
    search: searchResult(
      searchRun('sqlite', 17, { plan: plan(6) }),
      searchRun('postgres', 20, { plan: plan(34) }),
    ),
    web: { files: ['assets/index.js'], gzipKiB: 130.8, builtAt: '2026-11-26T23:30:00.000Z' },
  });
}
