import { describe, expect, it } from 'vitest';
import type { SearchDialectRun, SearchResult } from '../scenarios/search';
import type { Timings } from '../search/measure';
import { budgetRows } from './budgets';
import type { Results } from './results';
import { testResults } from './test-results';

// The search rows: the HTTP route's p95 against BUDGETS.searchP95Ms per dialect, LIKE beside it, the index size.
const results = (search: SearchResult | null): Results => testResults({ search });

const timings = (p50: number, p95: number, over: Partial<Timings> = {}): Timings => ({
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

const run = (dialect: SearchDialectRun['dialect'], httpP95: number): SearchDialectRun => ({
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
});

const search = (...runs: SearchDialectRun[]): SearchResult => ({
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

const row = (r: Results, what: string) => budgetRows(r).find((x) => x.what.startsWith(what));

describe('message search rows', () => {
  it('judges each dialect’s HTTP p95 against its own bound, with LIKE and the slowest shape beside it', () => {
    const r = results(search(run('sqlite', 60), run('postgres', 60)));
    expect(row(r, 'Message search, 1,000,000 messages (SQLite)')).toMatchObject({
      verdict: 'MISS',
      reason: 'p95 60.0 ms > 50 ms; slowest shape from (p95 90.0 ms); bg 0.10 cores',
      ws: "LIKE '%word%': p50 30.0 / p95 90.0 ms",
      ratio: '0.67× LIKE (p95)',
      limitedBy: 'not the server (0.40 / – cores)',
    });
    expect(row(r, 'Message search, 1,000,000 messages (PostgreSQL)')).toMatchObject({
      verdict: 'PASS',
      reason: 'p95 60.0 ms ≤ 80 ms; slowest shape from (p95 90.0 ms); bg 0.10 cores',
    });
    expect(row(r, 'Search index on disk')?.parley).toBe(
      'SQLite 35.0 MiB (25% of 140.0 MiB); PostgreSQL 35.0 MiB (25% of 140.0 MiB)',
    );
  });

  it('is n/a while search was not measured, and lists no index size', () => {
    const r = results(null);
    expect(row(r, 'Message search, 1,000,000 messages (SQLite)')).toMatchObject({
      verdict: 'n/a',
      reason: 'search p95 not measured',
    });
    expect(row(r, 'Search index on disk')).toBeUndefined();
  });
});
