import { fmt } from '../lib/stats';
import { pageServerLabel } from './budget-row';
import { table } from './markdown-cells';
import type { Results } from './results';

// The report's section on the history endpoint: the page against two bare Fastify routes, then the web app's
// catch-up after a reconnect on the same Parley.
export function historySection(results: Results): string[] {
  const history = results.history;
  if (!history?.runs.length) return [];
  const out = [
    '## History endpoint',
    '',
    `autocannon, 20 connections, GET /api/chats/{chat_id}/messages/ (50 messages, ${fmt(history.pageBytes / 1024, 1)} KiB of JSON) ` +
      'with a bearer session token, against two bare Fastify routes: one reading the same 50 rows from the same ' +
      'SQLite file with one prepared statement, one returning the same JSON as a constant.',
    '',
    table(
      ['Server', 'Rep', 'Requests/s', 'p50 / p99 ms', 'Server CPU ms / 1k req', 'Errors + non-2xx'],
      history.runs.map((r) => [
        pageServerLabel[r.server],
        r.rep,
        fmt(r.requestsPerSecond),
        `${r.latencyP50} / ${r.latencyP99}`,
        fmt(r.cpuMsPer1000),
        r.errors + r.non2xx,
      ]),
    ),
    '',
  ];
  const catchUp = history.catchUp ?? [];
  if (catchUp.length) {
    out.push(
      'Catch-up after a reconnect, on the same Parley: the web app’s own catch-up (its loaded stretch read again, ' +
        'then everything after it, 100 messages a request), timed over several catch-ups back to back.',
      '',
      table(
        ['Rep', 'Missed + loaded', 'Requests', 'Server CPU ms', 'Wall ms'],
        catchUp.map((c) => [
          c.rep,
          `${fmt(c.missed)} + ${fmt(c.loaded)}`,
          c.requests,
          fmt(c.serverCpuMs, 1),
          fmt(c.wallMs, 1),
        ]),
      ),
      '',
    );
  }
  return out;
}
