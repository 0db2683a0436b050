import { fmt } from '../lib/stats';
import type { ChannelsPage } from '../scenarios/channels';
import type { PageRun, PageServer } from '../scenarios/page-load';
import { median } from './budget-row';
import { table } from './markdown-cells';
import { CHANNELS_PAGES } from './page-rows';
import type { Results } from './results';

// The report's section on the channel directory and a long thread: each page's figures on the three servers,
// medians of the repetitions (the budget table gives their ranges).
const SERVERS: PageServer[] = ['parley', 'fastify-sqlite', 'fastify'];
const pageName = (page: ChannelsPage, query: string) =>
  page === 'directory'
    ? 'Directory, first page: `/api/channels/`'
    : page === 'search'
      ? `Directory search: \`/api/channels/?q=${query}\``
      : 'Thread, first page: `/api/chats/{chat_id}/messages/{root_id}/thread/`';

export function channelsSection(results: Results): string[] {
  const c = results.channels;
  if (!c?.runs.length) return [];
  const figure = (runs: PageRun[], value: (r: PageRun) => number) =>
    SERVERS.map((s) => fmt(median(runs.filter((r) => r.server === s).map(value)))).join(' / ');
  return [
    '## Channel directory and threads',
    '',
    `autocannon, 20 connections, bearer session token, on one Parley holding ${fmt(c.channels)} public channels ` +
      `(member counts falling off with rank; the search is \`?q=${c.query}\`, a word start in about a quarter of them) ` +
      `and a group whose root message has ${fmt(c.threadReplies)} thread replies; each page against a bare ` +
      'Fastify route answering from the same SQLite file with one prepared statement and one returning the ' +
      'same JSON as a constant. Medians of the repetitions, Parley / Fastify + SQLite / constant.',
    '',
    table(
      ['Page', 'JSON KiB', 'Requests/s', 'p99 ms', 'Server CPU ms / 1k req', 'Errors + non-2xx'],
      CHANNELS_PAGES.flatMap((page) => {
        const runs = c.runs.filter((r) => r.page === page);
        if (runs.length === 0) return [];
        const bytes = c.pages.find((p) => p.page === page)?.bytes ?? Number.NaN;
        return [
          [
            pageName(page, c.query),
            fmt(bytes / 1024, 1),
            figure(runs, (r) => r.requestsPerSecond),
            figure(runs, (r) => r.latencyP99),
            figure(runs, (r) => r.cpuMsPer1000),
            runs.reduce((n, r) => n + r.errors + r.non2xx, 0),
          ],
        ];
      }),
    ),
    '',
  ];
}
