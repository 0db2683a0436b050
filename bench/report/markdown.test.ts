import { describe, expect, it } from 'vitest';
import type { HistoryRun } from '../scenarios/history';
import { renderMarkdown } from './markdown';
import { testResults } from './test-results';

const run = (server: HistoryRun['server'], rps: number): HistoryRun => ({
  server,
  rep: 1,
  requestsPerSecond: rps,
  latencyP50: 12,
  latencyP99: 28,
  errors: 0,
  non2xx: 0,
  total: rps * 3,
  cpuMsPer1000: 300,
});

describe('history section', () => {
  it('names each of the three servers by what it is', () => {
    const md = renderMarkdown(
      testResults({
        history: {
          pageBytes: 19_000,
          runs: [run('parley', 2000), run('fastify-sqlite', 3000), run('fastify', 6000)],
        },
      }),
    );
    expect(md).toContain('| Parley (SQLite) | 1 | 2,000 |');
    expect(md).toContain('| bare Fastify + SQLite | 1 | 3,000 |');
    expect(md).toContain('| bare Fastify (constant JSON) | 1 | 6,000 |');
  });
});
