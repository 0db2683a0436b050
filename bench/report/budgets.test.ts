import { describe, expect, it } from 'vitest';
import type { HistoryRun } from '../scenarios/history';
import type { IdleRun } from '../scenarios/idle';
import type { LatencyRun } from '../scenarios/latency';
import type { ThroughputRun } from '../scenarios/throughput';
import type { Variant } from '../targets';
import { BUDGETS, type BudgetRow, budgetRows } from './budgets';
import { limitedBy } from './checks';
import type { Results } from './results';
import { testResults } from './test-results';

// Results go in, verdicts and reasons come out: each figure against its DESIGN §8 bound, computed from the numbers.
const results = testResults;

/** A saturation run: `cpuMs` per 1,000 deliveries, so its server used cpuMs × deliveries/s ÷ 10⁶ cores. */
function sat(
  variant: Variant,
  rep: number,
  saturation: number,
  cpuMs: number,
  gen: number,
  bg = 0,
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
  };
}

function lat(variant: Variant, rep: number, p99: number, over: Partial<LatencyRun> = {}): LatencyRun {
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

function idle(over: Partial<IdleRun> = {}): IdleRun {
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

const page = (server: HistoryRun['server'], rep: number, rps: number, cpuMs: number): HistoryRun => ({
  server,
  rep,
  requestsPerSecond: rps,
  latencyP50: 12,
  latencyP99: 28,
  errors: 0,
  non2xx: 0,
  total: rps * 3,
  cpuMsPer1000: cpuMs,
});

const row = (r: Results, what: string): BudgetRow => {
  const found = budgetRows(r).find((x) => x.what.startsWith(what));
  if (!found) throw new Error(`no row "${what}"`);
  return found;
};

const saturationRow = (...throughput: ThroughputRun[]) => row(results({ throughput }), 'Delivered');

describe('saturation', () => {
  it('passes when both paired ratios meet their floors, and names the side at one core', () => {
    const r = saturationRow(
      sat('parley', 1, 300_000, 3.2, 0.95),
      sat('ws', 1, 90_000, 10, 0.92),
      sat('socketio', 1, 60_000, 12, 0.5),
    );
    expect(r.verdict).toBe('PASS');
    expect(r.reason).toBe('3.33 × ≥ 0.7 × bare ws; 5.00 × ≥ 1.5 × Socket.IO');
    expect(r.limitedBy).toContain('Parley: both (0.96 / 0.95 cores)');
    expect(r.limitedBy).toContain('bare ws: both (0.90 / 0.92 cores)');
    expect(r.limitedBy).toContain('Socket.IO: neither (0.72 / 0.50 cores)');
    // A generator at its core: the ratio per server CPU-second is given beside it.
    expect(r.limitedBy).toContain('per server CPU-second Parley delivers 3.13× bare ws, 3.75× Socket.IO');
  });

  it('misses on one ratio and says by how much, with the bound taken from BUDGETS', () => {
    const r = saturationRow(
      sat('parley', 1, 77_000, 12.6, 0.56),
      sat('ws', 1, 85_000, 11.4, 0.91),
      sat('socketio', 1, 70_000, 13, 1.0),
    );
    expect(r.verdict).toBe('MISS');
    expect(r.reason).toContain('0.91 × ≥ 0.7 × bare ws');
    expect(r.reason).toContain(`1.10 × < ${BUDGETS.saturation.socketio} × Socket.IO`);
    expect(r.reason).toContain('CPU ms per message in: Parley 0.13, bare ws 0.11, Socket.IO 0.13');
    expect(r.reason).toContain('1.5 × Socket.IO = 105,000/s > bare ws 85,000/s');
    expect(r.limitedBy).toContain('Parley: server (0.97 / 0.56 cores)');
  });

  it('is n/a with the missing peer named when a peer has no run', () => {
    const r = saturationRow(sat('parley', 1, 77_000, 12.6, 0.56), sat('ws', 1, 85_000, 11.4, 0.91));
    expect(r.verdict).toBe('n/a');
    expect(r.reason).toBe('0.91 × ≥ 0.7 × bare ws; ratio to Socket.IO not measured');
    expect(r.socketio).toBe('–');
  });

  it('leaves out contended runs when every server kept a quiet one, and says so', () => {
    const r = saturationRow(
      sat('parley', 1, 30_000, 12, 0.5, 0.9),
      sat('parley', 2, 80_000, 12, 0.5),
      sat('ws', 1, 85_000, 11, 0.9),
      sat('ws', 2, 85_000, 11, 0.9),
      sat('socketio', 1, 40_000, 13, 0.9),
      sat('socketio', 2, 40_000, 13, 0.9),
    );
    expect(r.parley).toBe('80,000');
    expect(r.verdict).toBe('PASS');
    expect(r.reason).toBe('0.94 × ≥ 0.7 × bare ws; 2.00 × ≥ 1.5 × Socket.IO; 1 contended run left out');
  });

  it('keeps a row for the budget when no saturation run was made', () => {
    const r = row(results(), 'Delivered');
    expect(r.verdict).toBe('n/a');
    expect(r.reason).toBe('saturation not measured');
  });
});

describe('latency', () => {
  it('passes under the p99 bound with nothing lost or duplicated', () => {
    const r = row(
      results({ latency: [lat('parley', 1, 10.6), lat('parley', 2, 10.4), lat('parley', 3, 10.7)] }),
      'p99 delivery latency, 100 rooms × 10, 500 msg/s in (SQLite)',
    );
    expect(r.verdict).toBe('PASS');
    expect(r.reason).toBe('p99 10.6 ms ≤ 25 ms; 0 lost, 0 duplicated');
    expect(r.limitedBy).toBe('neither (0.44 / 0.21 cores)');
  });

  it('misses on a duplicate even when the p99 is within budget', () => {
    const r = row(results({ latency: [lat('parley', 1, 10, { duplicated: 1 })] }), 'p99 delivery latency');
    expect(r.verdict).toBe('MISS');
    expect(r.reason).toBe('p99 10.0 ms ≤ 25 ms; 0 lost, 1 duplicated');
  });

  it('misses over the p99 bound and gives the server’s load beside it', () => {
    const r = row(
      results({ latency: [lat('parley-pg', 1, 31, { background: 0.4, eldP99: 12 })] }),
      'p99 delivery latency, 100 rooms × 10, 500 msg/s in (PostgreSQL)',
    );
    expect(r.verdict).toBe('MISS');
    expect(r.reason).toBe(
      'p99 31.0 ms > 25 ms; 0 lost, 0 duplicated; 88 ms CPU per 1,000 deliveries, event-loop delay p99 12.0 ms, 0.40 cores of other work',
    );
  });

  it('is n/a when the latency case was not run', () => {
    const r = row(results(), 'p99 delivery latency');
    expect(r.verdict).toBe('n/a');
    expect(r.reason).toBe('p99 not measured');
    expect(r.parley).toBe('–');
  });

  it('judges the two-process extra p99 on paired runs', () => {
    const at200 = { rate: 200, deliveredPerSecond: 2000 };
    const redis = [
      lat('parley-pg', 1, 19, { ...at200, cpuPer1000: 0.19 }),
      lat('parley-pg-redis', 1, 34, { ...at200, cpuPer1000: 0.41 }),
      // Unpaired: counted in the two processes' own figures, not in the paired difference.
      lat('parley-pg-redis', 2, 50, { ...at200, cpuPer1000: 0.41 }),
    ];
    const r = row(results({ redis }), 'Extra p99 latency');
    expect(r.what).toContain('200 msg/s in');
    expect(r.verdict).toBe('MISS');
    expect(r.reason).toBe('+15.0 ms > 5 ms; 0 lost, 0 duplicated');
    expect(r.limitedBy).toBe(
      'two processes: neither (0.82 in 2 processes / 0.21 cores); one: neither (0.38 / 0.21 cores)',
    );
  });

  it('is n/a for the two-process budget without a pair', () => {
    const r = row(results({ redis: [lat('parley-pg', 1, 19)] }), 'Extra p99 latency');
    expect(r.verdict).toBe('n/a');
    expect(r.reason).toBe('paired p99 not measured');
  });
});

describe('idle, history and web', () => {
  it('passes idle connections held back by the fd limit when every allowed one is in', () => {
    const r = row(
      results({ idle: [idle({ attempted: 19_944, connected: 19_944, fdLimit: 20_000 })] }),
      'Idle',
    );
    expect(r.verdict).toBe('PASS');
    expect(r.reason).toBe(
      '19,944 of the 19,944 the fd limit (20,000) allowed; 0 failed; 11.1 KiB ≤ 16 KiB; heap 9.1 KiB each',
    );
    expect(r.limitedBy).toBe('fd limit (20,000)');
  });

  it('misses idle connections over the memory bound, and leaves a small pass unjudged', () => {
    expect(row(results({ idle: [idle({ kibPerConnection: 17.5 })] }), 'Idle')).toMatchObject({
      verdict: 'MISS',
      reason: '20,000 ≥ 20,000 connected; 0 failed; 17.5 KiB > 16 KiB; heap 9.1 KiB each',
    });
    const quick = row(results({ idle: [idle({ goal: 2000, attempted: 2000, connected: 2000 })] }), 'Idle');
    expect(quick.verdict).toBe('n/a');
    expect(quick.reason).toMatch(/^goal 2,000 < 20,000; /);
  });

  it('misses the history page below half the bare route, paired by repetition', () => {
    const history = {
      pageBytes: 19_000,
      runs: [
        page('parley', 1, 1281, 890),
        page('fastify', 1, 6628, 150),
        page('parley', 2, 1450, 697),
        page('fastify', 2, 6669, 144),
      ],
    };
    const r = row(results({ history }), 'History');
    expect(r.verdict).toBe('MISS');
    expect(r.reason).toBe('0.21 × < 0.5 ×; 0 errors; CPU ms per request: Parley 0.79, bare Fastify 0.15');
    expect(r.limitedBy).toContain('autocannon’s CPU not recorded');
    expect(row(results(), 'History')).toMatchObject({
      verdict: 'n/a',
      reason: 'paired ratio to bare Fastify not measured',
    });
  });

  it('judges the initial JavaScript, and says when the web app was not built', () => {
    const built = results({ web: { files: ['/a.js'], gzipKiB: 128.4, builtAt: '2026-11-21T10:08:00.000Z' } });
    expect(row(built, 'Web: initial')).toMatchObject({ verdict: 'PASS', reason: '128.4 KiB ≤ 150 KiB' });
    expect(row(results(), 'Web: initial')).toMatchObject({
      verdict: 'n/a',
      reason: 'initial JavaScript (apps/web/dist not built) not measured',
    });
  });
});

describe('limitedBy', () => {
  it('names the side at one core, or neither, or what was not recorded', () => {
    expect(limitedBy(0.97, 0.5)).toBe('server (0.97 / 0.50 cores)');
    expect(limitedBy(0.5, 0.95)).toBe('generator (0.50 / 0.95 cores)');
    expect(limitedBy(1.6, 0.5, 2)).toBe('neither (1.60 in 2 processes / 0.50 cores)');
    expect(limitedBy(0.5, Number.NaN)).toBe('not the server (0.50 / – cores)');
    expect(limitedBy(Number.NaN, Number.NaN)).toBe('CPU not recorded (– / – cores)');
  });
});

it('writes no narrative: every row of a full run reads as numbers and bounds', () => {
  const rows = budgetRows(
    results({
      throughput: [sat('parley', 1, 77_000, 12.6, 0.56), sat('ws', 1, 85_000, 11.4, 0.91)],
      latency: [lat('parley', 1, 30), lat('parley-acks', 1, 330)],
      idle: [idle({ kibPerConnection: 20 })],
    }),
  );
  for (const r of rows) expect(`${r.reason} ${r.limitedBy}`).not.toMatch(/finding/i);
});
