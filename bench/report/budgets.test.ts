import { describe, expect, it } from 'vitest';
import type { PageRun } from '../scenarios/page-load';
import type { ThroughputRun } from '../scenarios/throughput';
import { BUDGETS, type BudgetRow, budgetRows } from './budgets';
import { limitedBy } from './checks';
import { type Results, withIdleRuns } from './results';
import { testResults } from './test-results';
import { channelsResult, idle, lat, page, restartRun, sat } from './test-runs';

// Results go in, verdicts and reasons come out: each figure against its DESIGN §8 bound, computed from the numbers.
const results = testResults;

const row = (r: Results, what: string): BudgetRow => {
  const found = budgetRows(r).find((x) => x.what.startsWith(what));
  if (!found) throw new Error(`no row "${what}"`);
  return found;
};

const saturationRow = (...throughput: ThroughputRun[]) => row(results({ throughput }), 'Delivered');

describe('saturation', () => {
  it('passes when every paired ratio meets its floor, and names the side at its ceiling', () => {
    const r = saturationRow(
      sat('parley', 1, 300_000, 3.2, 0.5),
      sat('ws', 1, 95_000, 10, 0.6),
      sat('socketio', 1, 60_000, 12, 0.5),
      sat('naive-ws', 1, 25_000, 30, 0.4),
    );
    expect(r.verdict).toBe('PASS');
    expect(r.reason).toBe(
      '3.16 × ≥ 0.7 × bare ws; per server CPU-second 3.13 × ≥ 0.7 × bare ws ' +
        '(server CPU ms per 1,000 deliveries: Parley 3.2, bare ws 10.0); 5.00 × ≥ 1.5 × Socket.IO',
    );
    expect(r.parley).toBe('300,000/s; 3.2 CPU ms / 1k');
    // The naive peer is shown for reference, never judged.
    expect(r.naive).toBe('25,000/s; 30.0 CPU ms / 1k');
    expect(r.ratio).toBe('3.16× ws, 3.13× per CPU-second; 5.00× Socket.IO; 12.00× naive ws');
    expect(r.limitedBy).toBe(
      'Parley: server (0.96 / 0.50 cores; machine 1.46 of 2 cores); ' +
        'bare ws: server (0.95 / 0.60 cores; machine 1.55 of 2 cores); ' +
        'Socket.IO: neither (0.72 / 0.50 cores; machine 1.22 of 2 cores); ' +
        'naive ws: neither (0.75 / 0.40 cores; machine 1.15 of 2 cores)',
    );
  });

  it('gives the store floor for reference, against Parley and against bare ws, never judged', () => {
    const r = saturationRow(
      sat('parley', 1, 70_000, 14, 0.5),
      sat('ws', 1, 300_000, 2.5, 0.6),
      sat('socketio', 1, 100_000, 7, 0.5),
      sat('ws-sqlite', 1, 210_000, 4.2, 0.5),
    );
    expect(r.verdict).toBe('MISS');
    expect(r.ratio).toBe(
      '0.23× ws, 0.18× per CPU-second; 0.70× Socket.IO; 0.33× ws + SQLite (the store floor, itself 0.70× ws)',
    );
    expect(r.limitedBy).toContain('ws + SQLite: ');
  });

  it('compares CPU per delivery at the highest offered rate both ramps shared while both kept up', () => {
    const steps = (...s: [number, number, number][]) =>
      s.map(([rate, delivered, cpuMsPer1000]) => ({
        rate,
        delivered,
        p99: 5,
        generatorCpu: 0.5,
        cpuMsPer1000,
      }));
    const r = saturationRow(
      sat('parley', 1, 60_000, 15.4, 0.5, 0, {
        steps: steps([3_200, 31_960, 22.6], [6_400, 59_759, 15.4], [12_800, 40_733, 25]),
      }),
      sat('ws', 1, 340_000, 2, 0.6, 0, {
        steps: steps([3_200, 31_973, 18.6], [6_400, 62_953, 14.6], [12_800, 121_327, 7.2]),
      }),
      // A later repetition's ramps share no rate: nothing to compare there.
      sat('parley', 2, 95_000, 9.9, 0.5, 0, { steps: steps([10_944, 95_700, 9.9]) }),
      sat('ws', 2, 390_000, 1.4, 0.6, 0, { steps: steps([49_856, 392_542, 1.4]) }),
      sat('socketio', 1, 68_000, 11.8, 0.5),
    );
    expect(r.reason).toContain(
      'at the same offered load (6,400 msgs/s in, rep 1, both keeping up) server CPU ms per 1,000 deliveries: ' +
        'Parley 15.4, bare ws 14.6, 0.95 × per CPU-second (for reference, not judged)',
    );
    expect(r.verdict).toBe('MISS');
  });

  it('misses on one ratio and says by how much, with the bound taken from BUDGETS', () => {
    const r = saturationRow(
      sat('parley', 1, 77_000, 12.6, 0.56),
      sat('ws', 1, 85_000, 11.4, 0.6),
      sat('socketio', 1, 70_000, 13, 0.6),
    );
    expect(r.verdict).toBe('MISS');
    expect(r.reason).toBe(
      '0.91 × ≥ 0.7 × bare ws; per server CPU-second 0.90 × ≥ 0.7 × bare ws ' +
        '(server CPU ms per 1,000 deliveries: Parley 12.6, bare ws 11.4); ' +
        `1.10 × < ${BUDGETS.saturation.socketio} × Socket.IO; 1.5 × Socket.IO = 105,000/s > bare ws 85,000/s`,
    );
    expect(r.limitedBy).toContain('Parley: server (0.97 / 0.56 cores; machine 1.53 of 2 cores)');
  });

  it('misses per server CPU-second even when deliveries/s is within its floor', () => {
    const r = saturationRow(
      sat('parley', 1, 77_000, 20, 0.56),
      sat('ws', 1, 85_000, 11.4, 0.6),
      sat('socketio', 1, 40_000, 13, 0.6),
    );
    expect(r.verdict).toBe('MISS');
    expect(r.reason).toBe(
      '0.91 × ≥ 0.7 × bare ws; per server CPU-second 0.57 × < 0.7 × bare ws ' +
        '(server CPU ms per 1,000 deliveries: Parley 20.0, bare ws 11.4); 1.93 × ≥ 1.5 × Socket.IO',
    );
  });

  it('is n/a with the missing peer named when a peer has no run', () => {
    const r = saturationRow(sat('parley', 1, 77_000, 12.6, 0.56), sat('ws', 1, 85_000, 11.4, 0.6));
    expect(r.verdict).toBe('n/a');
    expect(r.reason).toBe(
      '0.91 × ≥ 0.7 × bare ws; per server CPU-second 0.90 × ≥ 0.7 × bare ws ' +
        '(server CPU ms per 1,000 deliveries: Parley 12.6, bare ws 11.4); deliveries/s ratio to Socket.IO not measured',
    );
    expect(r.socketio).toBe('–');
    expect(r.naive).toBe('');
  });

  it('leaves the pairs whose generator was at its core out of the deliveries/s ratios, and says how many', () => {
    // Counted in, the two generator-bound pairs would pull the ratio to bare ws to 0.35 ×.
    const r = saturationRow(
      sat('parley', 1, 80_000, 12, 0.5),
      sat('ws', 1, 85_000, 11, 0.6),
      sat('socketio', 1, 40_000, 13, 0.5),
      sat('parley', 2, 30_000, 12, 0.97),
      sat('ws', 2, 85_000, 11, 0.6),
      sat('socketio', 2, 40_000, 13, 0.5),
      sat('parley', 3, 30_000, 12, 0.97),
      sat('ws', 3, 85_000, 11, 0.6),
      sat('socketio', 3, 40_000, 13, 0.5),
    );
    expect(r.verdict).toBe('PASS');
    expect(r.reason).toBe(
      '0.94 × ≥ 0.7 × bare ws; per server CPU-second 0.92 × ≥ 0.7 × bare ws ' +
        '(server CPU ms per 1,000 deliveries: Parley 12.0, bare ws 11.0); 2.00 × ≥ 1.5 × Socket.IO; ' +
        '2 of 3 pairs with bare ws left out of deliveries/s (a generator at its core); ' +
        '2 of 3 pairs with Socket.IO left out of deliveries/s (a generator at its core)',
    );
    expect(r.ratio).toBe('0.94× ws, 0.92 (0.92–0.92)× per CPU-second; 2.00× Socket.IO');
    expect(r.limitedBy).toContain('Parley: generator (0.36 / 0.97 cores; machine 1.33 of 2 cores)');
  });

  it('does not judge deliveries/s when a generator was at its core in every pair, but judges per CPU-second', () => {
    const bound = [sat('parley', 1, 77_000, 12.6, 0.56), sat('socketio', 1, 40_000, 13, 0.5)];
    const r = saturationRow(...bound, sat('ws', 1, 85_000, 11.4, 0.91));
    expect(r.verdict).toBe('n/a');
    expect(r.reason).toBe(
      'bare ws: a generator was at its core in every pair, not judged; per server CPU-second 0.90 × ≥ 0.7 × bare ws ' +
        '(server CPU ms per 1,000 deliveries: Parley 12.6, bare ws 11.4); 1.93 × ≥ 1.5 × Socket.IO',
    );
    // The pair's ratio is still shown, and the generator named among the sides at their ceiling.
    expect(r.ratio).toBe('0.91× ws, 0.90× per CPU-second; 1.93× Socket.IO');
    expect(r.limitedBy).toContain('bare ws: both (0.97 / 0.91 cores; machine 1.88 of 2 cores)');
    // A figure out of its bound is a MISS whatever else could not be judged.
    const worse = saturationRow(...bound, sat('ws', 1, 85_000, 6, 0.91));
    expect(worse.verdict).toBe('MISS');
    expect(worse.reason).toContain('per server CPU-second 0.48 × < 0.7 × bare ws');
  });

  it('judges the busiest of several generator processes, not their sum', () => {
    const two = (total: number, busiest: number) => ({
      generators: 2,
      generatorCpu: total,
      busiestGeneratorCpu: busiest,
      generatorBound: busiest > 0.9,
    });
    const r = saturationRow(
      sat('parley', 1, 60_000, 12, 0, 0, two(1.3, 0.7)),
      sat('ws', 1, 70_000, 11, 0, 0, two(1.2, 0.65)),
      sat('socketio', 1, 30_000, 13, 0, 0, two(0.6, 0.3)),
    );
    expect(r.verdict).toBe('PASS');
    expect(r.reason).toMatch(/^0\.86 × ≥ 0\.7 × bare ws; /);
    expect(r.limitedBy).toContain(
      'Parley: machine (0.72 / 1.30 in 2 generators, busiest 0.70 cores; machine 2.02 of 2 cores)',
    );
    // The same pair with its busiest generator at its core is not judged in deliveries/s.
    const bound = saturationRow(
      sat('parley', 1, 60_000, 12, 0, 0, two(1.3, 0.95)),
      sat('ws', 1, 70_000, 11, 0, 0, two(1.2, 0.65)),
      sat('socketio', 1, 30_000, 13, 0, 0, two(0.6, 0.3)),
    );
    expect(bound.verdict).toBe('n/a');
    expect(bound.reason).toMatch(/^bare ws: a generator was at its core in every pair, not judged; /);
  });

  it('leaves out contended runs when every server kept a quiet one, and says so', () => {
    const r = saturationRow(
      sat('parley', 1, 30_000, 12, 0.5, 0.9),
      sat('parley', 2, 80_000, 12, 0.5),
      sat('ws', 1, 85_000, 11, 0.6),
      sat('ws', 2, 85_000, 11, 0.6),
      sat('socketio', 1, 40_000, 13, 0.6),
      sat('socketio', 2, 40_000, 13, 0.6),
    );
    expect(r.parley).toBe('80,000/s; 12.0 CPU ms / 1k');
    expect(r.verdict).toBe('PASS');
    expect(r.reason).toBe(
      '0.94 × ≥ 0.7 × bare ws; per server CPU-second 0.92 × ≥ 0.7 × bare ws ' +
        '(server CPU ms per 1,000 deliveries: Parley 12.0, bare ws 11.0); 2.00 × ≥ 1.5 × Socket.IO; ' +
        '1 contended run left out',
    );
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

  it('judges link previews against the noise of the plain runs, paired', () => {
    const latency = [
      lat('parley', 1, 6),
      lat('parley', 2, 8),
      lat('parley-links', 1, 7),
      lat('parley-links', 2, 9),
    ];
    const within = row(results({ latency }), 'p99 latency added by link previews');
    expect(within.verdict).toBe('PASS');
    expect(within.reason).toMatch(/^\+1\.0 ms ≤ 2 ms; 0 lost, 0 duplicated/);
    const slow = [
      lat('parley', 1, 6),
      lat('parley', 2, 6.5),
      lat('parley-links', 1, 9),
      lat('parley-links', 2, 9),
    ];
    const beyond = row(results({ latency: slow }), 'p99 latency added by link previews');
    expect(beyond.verdict).toBe('MISS');
    expect(beyond.reason).toMatch(/^\+2\.8 ms > 1 ms/);
  });

  it('is n/a for the two-process budget without a pair', () => {
    const r = row(results({ redis: [lat('parley-pg', 1, 19)] }), 'Extra p99 latency');
    expect(r.verdict).toBe('n/a');
    expect(r.reason).toBe('paired p99 not measured');
  });
});

describe('idle, history and web', () => {
  it('leaves the count unjudged when the fd limit held the idle connections back, and judges their memory', () => {
    const r = row(
      results({
        idle: [
          idle({
            goal: 100_000,
            attempted: 19_944,
            connected: 19_944,
            fdLimit: 20_000,
            kibPerConnection: 4.6,
          }),
        ],
      }),
      'Idle',
    );
    expect(r.verdict).toBe('n/a');
    expect(r.reason).toBe(
      '19,944 of the 19,944 the fd limit (20,000) allowed; 100,000 not shown here; 0 failed; 4.6 KiB ≤ 8 KiB; heap 9.1 KiB each',
    );
    expect(r.limitedBy).toBe('fd limit (20,000)');
    const heavy = row(
      results({ idle: [idle({ goal: 100_000, attempted: 19_944, connected: 19_944, fdLimit: 20_000 })] }),
      'Idle',
    );
    expect(heavy.verdict).toBe('MISS');
  });

  it('passes 100,000 idle connections within the memory bound, misses over it, and leaves a small run unjudged', () => {
    const full = { goal: 100_000, attempted: 100_000, connected: 100_000, fdLimit: 200_000 };
    expect(row(results({ idle: [idle({ ...full, kibPerConnection: 6.2 })] }), 'Idle')).toMatchObject({
      verdict: 'PASS',
      reason: '100,000 ≥ 100,000 connected; 0 failed; 6.2 KiB ≤ 8 KiB; heap 9.1 KiB each',
    });
    expect(row(results({ idle: [idle({ ...full, kibPerConnection: 17.5 })] }), 'Idle')).toMatchObject({
      verdict: 'MISS',
      reason: '100,000 ≥ 100,000 connected; 0 failed; 17.5 KiB > 8 KiB; heap 9.1 KiB each',
    });
    const quick = row(results({ idle: [idle({ goal: 2000, attempted: 2000, connected: 2000 })] }), 'Idle');
    expect(quick.verdict).toBe('n/a');
    expect(quick.reason).toMatch(/^goal 2,000 < 100,000; /);
  });

  it('says where an idle run was measured when it was a virtual machine, and takes its rows in place of a run’s', () => {
    const vm = idle({
      goal: 100_000,
      attempted: 100_000,
      connected: 100_000,
      fdLimit: 1_100_000,
      kibPerConnection: 4.9,
      machine: 'a virtual machine of its own',
    });
    const host = results({
      idle: [idle({ variant: 'ws' }), idle({ goal: 100_000, attempted: 19_944, connected: 19_944 })],
    });
    const merged = withIdleRuns(host, { idle: [vm] });
    expect(merged.idle.map((r) => [r.variant, r.connected])).toEqual([
      ['parley', 100_000],
      ['ws', 20_000],
    ]);
    expect(row(merged, 'Idle')).toMatchObject({
      verdict: 'PASS',
      reason:
        '100,000 ≥ 100,000 connected; 0 failed; 4.9 KiB ≤ 8 KiB; heap 9.1 KiB each; measured in a virtual machine of its own',
    });
  });

  it('judges a restart: every socket back, the reconnection rate, nothing lost', () => {
    const restart = restartRun();
    expect(row(results({ restart }), 'A process restart')).toMatchObject({
      verdict: 'PASS',
      reason:
        '20,000 ≥ 20,000 back; 1,887/s ≥ 1,000/s; 0 lost, 0 duplicated; back 15.2 s after SIGTERM (stop 3.6 s, start 0.9 s, the herd 10.6 s); 10,800 messages × members checked',
    });
    const lossy = row(results({ restart: { ...restart, lost: 3 } }), 'A process restart');
    expect(lossy.verdict).toBe('MISS');
    const held = row(
      results({ restart: { ...restart, sockets: 19_744, fdLimit: 20_000 } }),
      'A process restart',
    );
    expect(held).toMatchObject({ verdict: 'n/a', limitedBy: 'fd limit (20,000)' });
    expect(held.reason).toMatch(
      /^19,744 of the 19,744 the fd limit \(20,000\) allowed back; 20,000 not shown here; /,
    );
  });

  it('misses the history page under both baselines, paired by repetition, and names the side at its ceiling', () => {
    const history = {
      pageBytes: 19_000,
      runs: [
        page('parley', 1, 1281, 890, 0.4),
        page('fastify-sqlite', 1, 3200, 310, 0.6),
        page('fastify', 1, 6628, 150, 0.95),
        page('parley', 2, 1450, 697, 0.4),
        page('fastify-sqlite', 2, 3300, 290, 0.6),
        page('fastify', 2, 6669, 144, 0.95),
      ],
    };
    const r = row(results({ history }), 'History');
    expect(r.verdict).toBe('MISS');
    expect(r.reason).toBe(
      '0.42 × < 0.5 × Fastify + SQLite; 0.21 × < 0.3 × constant Fastify; 0 errors; CPU ms per request: ' +
        'Parley (SQLite) 0.79, bare Fastify + SQLite 0.30, bare Fastify (constant JSON) 0.15',
    );
    expect(r.ratio).toBe('0.42 (0.40–0.44)× SQLite route; 0.21 (0.19–0.22)× constant');
    expect(r.ws).toBe('Fastify + SQLite: 3,250 (3,200–3,300) req/s; constant: 6,649 (6,628–6,669) req/s');
    expect(r.limitedBy).toBe(
      'Parley (SQLite): server (1.08 / 0.40 cores); bare Fastify + SQLite: server (0.97 / 0.60 cores); ' +
        'bare Fastify (constant JSON): both (0.98 / 0.95 cores)',
    );
  });

  it('passes the history page only when both ratios hold and nothing failed', () => {
    const runs = [
      page('parley', 1, 2000, 450, 0.5),
      page('fastify-sqlite', 1, 3000, 300, 0.6),
      page('fastify', 1, 6000, 150, 0.7),
    ];
    const passed = row(results({ history: { pageBytes: 19_000, runs } }), 'History');
    expect(passed.verdict).toBe('PASS');
    expect(passed.reason).toMatch(
      /^0\.67 × ≥ 0\.5 × Fastify \+ SQLite; 0\.33 × ≥ 0\.3 × constant Fastify; 0 errors; /,
    );
    const failing = [{ ...(runs[0] as PageRun), non2xx: 3 }, ...runs.slice(1)];
    expect(row(results({ history: { pageBytes: 19_000, runs: failing } }), 'History')).toMatchObject({
      verdict: 'MISS',
      reason: expect.stringContaining('; 3 errors; '),
    });
  });

  it('misses the history page on one baseline without the other, and is n/a while one is unmeasured', () => {
    // Runs from before the SQLite-reading route: the constant one alone can still decide a MISS.
    const old = [
      page('parley', 1, 1281, 890),
      page('fastify', 1, 6628, 150),
      page('parley', 2, 1450, 697),
      page('fastify', 2, 6669, 144),
    ];
    const r = row(results({ history: { pageBytes: 19_000, runs: old } }), 'History');
    expect(r.verdict).toBe('MISS');
    expect(r.reason).toBe(
      'paired ratio to Fastify + SQLite not measured; 0.21 × < 0.3 × constant Fastify; 0 errors; ' +
        'CPU ms per request: Parley (SQLite) 0.79, bare Fastify (constant JSON) 0.15',
    );
    // autocannon's CPU was not recorded then.
    expect(r.limitedBy).toBe(
      'Parley (SQLite): server (1.08 / – cores); bare Fastify (constant JSON): server (0.98 / – cores)',
    );
    const held = [page('parley', 1, 2000, 450), page('fastify', 1, 6000, 150)];
    expect(row(results({ history: { pageBytes: 19_000, runs: held } }), 'History')).toMatchObject({
      verdict: 'n/a',
      reason: expect.stringMatching(
        /^paired ratio to Fastify \+ SQLite not measured; 0\.33 × ≥ 0\.3 × constant Fastify; /,
      ),
    });
    expect(row(results(), 'History')).toMatchObject({
      verdict: 'n/a',
      reason: 'paired ratio to Fastify + SQLite not measured; paired ratio to constant Fastify not measured',
      parley: '–',
    });
  });

  it('judges the catch-up on its median server CPU, and is n/a before it was measured', () => {
    const catchUp = (rep: number, serverCpuMs: number, wallMs: number) => ({
      rep,
      missed: 1000,
      loaded: 50,
      requests: 12,
      walks: 20,
      serverCpuMs,
      wallMs,
    });
    const runs = [page('parley', 1, 2000, 450)];
    const passed = row(
      results({
        history: {
          pageBytes: 19_000,
          runs,
          catchUp: [catchUp(1, 9.5, 14), catchUp(2, 8, 12.5), catchUp(3, 12, 16)],
        },
      }),
      'Catch-up',
    );
    expect(passed).toMatchObject({
      verdict: 'PASS',
      parley: '9.5 (8.0–12.0) ms CPU in 12 requests',
      reason: '9.5 ms ≤ 100 ms; 1,000 missed and 50 loaded (read again) fetched; wall 14.0 (12.5–16.0) ms',
    });
    const slow = row(
      results({ history: { pageBytes: 19_000, runs, catchUp: [catchUp(1, 130, 150)] } }),
      'Catch-up',
    );
    expect(slow).toMatchObject({ verdict: 'MISS', reason: expect.stringMatching(/^130\.0 ms > 100 ms; /) });
    // Results from before the catch-up was measured.
    expect(row(results({ history: { pageBytes: 19_000, runs } }), 'Catch-up')).toMatchObject({
      verdict: 'n/a',
      reason: 'catch-up not measured',
      parley: '–',
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

describe('channel directory and threads', () => {
  it('judges each page on its own against the history page’s budget, paired by repetition', () => {
    const channels = channelsResult(
      ['directory', 'parley', 1, 900, 1_100, 0.3],
      ['directory', 'fastify-sqlite', 1, 1_000, 950, 0.3],
      ['directory', 'fastify', 1, 9_000, 110, 0.9],
      ['directory', 'parley', 2, 1_200, 900, 0.3],
      ['directory', 'fastify-sqlite', 2, 1_000, 950, 0.3],
      ['directory', 'fastify', 2, 10_000, 100, 0.9],
      ['thread', 'parley', 1, 3_000, 330, 0.4],
      ['thread', 'fastify-sqlite', 1, 4_000, 250, 0.4],
      ['thread', 'fastify', 1, 9_000, 110, 0.9],
    );
    const r = results({ channels });
    const directory = row(r, 'Channel directory, first page');
    expect(directory.what).toBe('Channel directory, first page of 20 of 1,000 channels (HTTP)');
    expect(directory.budget).toBe(row(r, 'History').budget);
    expect(directory.verdict).toBe('MISS');
    expect(directory.reason).toBe(
      '1.05 × ≥ 0.5 × Fastify + SQLite; 0.11 × < 0.3 × constant Fastify; 0 errors; CPU ms per request: ' +
        'Parley (SQLite) 1.00, bare Fastify + SQLite 0.95, bare Fastify (constant JSON) 0.11',
    );
    expect(directory.ratio).toBe('1.05 (0.90–1.20)× SQLite route; 0.11 (0.10–0.12)× constant');
    const thread = row(r, 'Thread');
    expect(thread.what).toBe('Thread, first page of 50 of 10,000 replies (HTTP)');
    expect(thread).toMatchObject({
      verdict: 'PASS',
      reason: expect.stringMatching(
        /^0\.75 × ≥ 0\.5 × Fastify \+ SQLite; 0\.33 × ≥ 0\.3 × constant Fastify; 0 errors; /,
      ),
    });
    // A page the run did not reach is n/a.
    expect(row(r, 'Channel directory search')).toMatchObject({
      what: 'Channel directory search ?q=garden, first page of 1,000 channels (HTTP)',
      verdict: 'n/a',
      parley: '–',
    });
  });

  it('names the pages without sizes, n/a, in results from before the scenario', () => {
    const rows = budgetRows(results()).filter((x) => /^(Channel|Thread)/.test(x.what));
    expect(rows.map((x) => [x.what, x.verdict])).toEqual([
      ['Channel directory, first page of 20 (HTTP)', 'n/a'],
      ['Channel directory search, first page (HTTP)', 'n/a'],
      ['Thread, first page of 50 (HTTP)', 'n/a'],
    ]);
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

  it('weighs the busiest of several generators, and the whole machine when neither side is at its core', () => {
    expect(limitedBy(0.5, 1.4, 1, { generators: 2, busiestGenerator: 0.7 })).toBe(
      'neither (0.50 / 1.40 in 2 generators, busiest 0.70 cores)',
    );
    expect(limitedBy(0.5, 1.9, 1, { generators: 2, busiestGenerator: 0.95 })).toBe(
      'generator (0.50 / 1.90 in 2 generators, busiest 0.95 cores)',
    );
    expect(limitedBy(0.8, 0.7, 1, { machine: { busy: 1.85, cores: 2 } })).toBe(
      'machine (0.80 / 0.70 cores; machine 1.85 of 2 cores)',
    );
    expect(limitedBy(0.95, 0.7, 1, { machine: { busy: 1.85, cores: 2 } })).toBe(
      'server (0.95 / 0.70 cores; machine 1.85 of 2 cores)',
    );
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
