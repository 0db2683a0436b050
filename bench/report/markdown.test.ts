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

describe('channel directory and threads section', () => {
  it('gives each page’s figures on the three servers, Parley first', () => {
    const md = renderMarkdown(wholeRun());
    expect(md).toContain(
      '| Directory search: `/api/channels/?q=garden` | 5.8 | 1,200 / 1,500 / 9,000 | 28 / 28 / 28 | 800 / 650 / 110 | 0 |',
    );
    expect(md).toContain('| Thread, first page: `/api/chats/{chat_id}/messages/{root_id}/thread/` | 26.4 |');
  });
});

describe('the report of a whole run', () => {
  it('stays reference: at most 260 lines, with what is measured, the budgets and where the time goes', () => {
    const md = renderMarkdown(wholeRun());
    expect(md.split('\n').length).toBeLessThanOrEqual(260);
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
      '## Channel directory and threads',
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
