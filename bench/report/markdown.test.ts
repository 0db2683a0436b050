import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown';
import { testResults } from './test-results';
import { page, wholeRun } from './test-runs';

describe('history section', () => {
  it('names each of the three servers by what it is', () => {
    const md = renderMarkdown(
      testResults({
        history: {
          pageBytes: 19_000,
          runs: [
            page('parley', 1, 2000, 300),
            page('fastify-sqlite', 1, 3000, 300),
            page('fastify', 1, 6000, 300),
          ],
        },
      }),
    );
    expect(md).toContain('| Parley (SQLite) | 1 | 2,000 |');
    expect(md).toContain('| bare Fastify + SQLite | 1 | 3,000 |');
    expect(md).toContain('| bare Fastify (constant JSON) | 1 | 6,000 |');
  });
});

describe('the report of a whole run', () => {
  it('stays reference: at most 250 lines, with what is measured, the budgets and where the time goes', () => {
    const md = renderMarkdown(wholeRun());
    expect(md.split('\n').length).toBeLessThanOrEqual(250);
    const headings = md.split('\n').filter((line) => line.startsWith('## '));
    expect(headings).toEqual([
      '## What is measured',
      '## DESIGN §8 budgets',
      '## Where time goes now',
      '## Saturation throughput',
      '## Delivery latency',
      '## One process against two over Redis',
      '## Idle connections',
      '## Connect/disconnect churn',
      '## A process restart',
      '## History endpoint',
      '## Message search',
    ]);
    expect(md).toContain('[Where time goes now](#where-time-goes-now)');
  });

  it('leaves the search plans to bench/results/latest.md', () => {
    expect(renderMarkdown(wholeRun())).not.toContain('Plan of the slowest HTTP query');
    const withPlans = renderMarkdown(wholeRun(), { plans: true });
    expect(withPlans).toContain('Plan of the slowest HTTP query (by its fastest pass) on PostgreSQL');
  });
});
