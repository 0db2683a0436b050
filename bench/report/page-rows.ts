import { fmt, fmtSpread, pairedRatios, spread } from '../lib/stats';
import type { ChannelsPage } from '../scenarios/channels';
import type { PageRun, PageServer } from '../scenarios/page-load';
import { type BudgetRow, median, pageServerLabel, ratioText, times } from './budget-row';
import { atLeast, bound, judge, limitedBy } from './checks';
import type { Results } from './results';
import { BUDGETS } from './thresholds';

// The budget rows of HTTP pages held to DESIGN §8's history-page budget: Parley's requests/s paired run by run
// with a bare Fastify route reading the same rows from SQLite and with one returning the same JSON as a
// constant — the history page itself, and the channel directory, a directory search and a long thread's first
// page.

/** One page's row from its runs on the three servers. */
export function pageRow(what: string, runs: PageRun[]): BudgetRow {
  const of = (server: PageServer) => runs.filter((r) => r.server === server);
  const p = of('parley');
  const ratioTo = (server: PageServer) =>
    pairedRatios(
      p.map((r) => r.requestsPerSecond),
      p.map((r) => runs.find((x) => x.server === server && x.rep === r.rep)?.requestsPerSecond ?? Number.NaN),
    );
  const vsSqlite = ratioTo('fastify-sqlite');
  const vsConstant = ratioTo('fastify');
  const errors = p.reduce((n, r) => n + r.errors + r.non2xx, 0);
  // Cores = CPU ms per 1,000 requests × requests/s ÷ 10⁶; autocannon's own, where recorded.
  const cores = (rs: PageRun[]) => median(rs.map((r) => (r.cpuMsPer1000 * r.requestsPerSecond) / 1e6));
  const loadCores = (rs: PageRun[]) => median(rs.map((r) => r.loadCpu ?? Number.NaN));
  const cpuPerRequest = (rs: PageRun[]) => fmt(median(rs.map((r) => r.cpuMsPer1000)) / 1000, 2);
  const rps = (rs: PageRun[]) =>
    rs.length ? `${fmtSpread(spread(rs.map((r) => r.requestsPerSecond)))} req/s` : '';
  const { sqlite, constant } = BUDGETS.history;
  const checks = [
    atLeast(vsSqlite.median, sqlite, {
      name: 'paired ratio to Fastify + SQLite',
      ...times(2),
      suffix: ' Fastify + SQLite',
    }),
    atLeast(vsConstant.median, constant, {
      name: 'paired ratio to constant Fastify',
      ...times(2),
      suffix: ' constant Fastify',
    }),
    ...(p.length ? [{ ok: errors === 0, missing: false, text: `${fmt(errors)} errors` }] : []),
  ];
  const measured = (['parley', 'fastify-sqlite', 'fastify'] as const).filter((s) => of(s).length);
  return {
    what,
    budget: `≥ ${bound(sqlite)} × a bare Fastify route reading the same rows from SQLite; ≥ ${bound(constant)} × one returning the same JSON as a constant`,
    parley: p.length ? rps(p) : '–',
    ws: [
      of('fastify-sqlite').length ? `Fastify + SQLite: ${rps(of('fastify-sqlite'))}` : '',
      of('fastify').length ? `constant: ${rps(of('fastify'))}` : '',
    ]
      .filter(Boolean)
      .join('; '),
    socketio: '',
    ratio: `${ratioText(vsSqlite)} SQLite route; ${ratioText(vsConstant)} constant`,
    ...judge(
      checks,
      measured.length > 1
        ? [
            `CPU ms per request: ${measured.map((s) => `${pageServerLabel[s]} ${cpuPerRequest(of(s))}`).join(', ')}`,
          ]
        : [],
    ),
    limitedBy: measured
      .map((s) => `${pageServerLabel[s]}: ${limitedBy(cores(of(s)), loadCores(of(s)))}`)
      .join('; '),
  };
}

export const historyRow = (results: Results) =>
  pageRow('History page of 50 messages (HTTP)', results.history?.runs ?? []);

/** The channels scenario's pages as the budget table names them (with the run's sizes, once measured). */
export function channelsPageName(page: ChannelsPage, results: Results): string {
  const c = results.channels;
  const of = c ? ` of ${fmt(c.channels)} channels` : '';
  if (page === 'directory') return `Channel directory, first page of 20${of} (HTTP)`;
  if (page === 'search')
    return `Channel directory search${c ? ` ?q=${c.query}` : ''}, first page${of} (HTTP)`;
  return `Thread, first page of 50${c ? ` of ${fmt(c.threadReplies)} replies` : ''} (HTTP)`;
}

export const CHANNELS_PAGES: ChannelsPage[] = ['directory', 'search', 'thread'];

export const channelsRows = (results: Results): BudgetRow[] =>
  CHANNELS_PAGES.map((page) =>
    pageRow(
      channelsPageName(page, results),
      (results.channels?.runs ?? []).filter((r) => r.page === page),
    ),
  );
