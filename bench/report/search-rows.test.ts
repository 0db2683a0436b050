import { describe, expect, it } from 'vitest';
import type { SearchResult } from '../scenarios/search';
import { budgetRows } from './budgets';
import type { Results } from './results';
import { testResults } from './test-results';
import { searchResult, searchRun } from './test-runs';

// The search rows: the HTTP route's p95 against BUDGETS.searchP95Ms per dialect, LIKE beside it, the index size.
const results = (search: SearchResult | null): Results => testResults({ search });

const row = (r: Results, what: string) => budgetRows(r).find((x) => x.what.startsWith(what));

describe('message search rows', () => {
  it('judges each dialect’s HTTP p95 against its own bound, with LIKE and the slowest shape beside it', () => {
    const r = results(searchResult(searchRun('sqlite', 60), searchRun('postgres', 60)));
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
