import { fmt } from '../lib/stats';
import { SHAPES } from '../search/queries';
import { table } from './markdown-cells';
import type { Results } from './results';
import { mib } from './search-rows';

// The report's section on message search: every way of running the queries by shape, the index's size, and, with
// `plans`, the plan of each dialect's slowest query (long: kept out of docs/benchmarks.md).
export function searchSection(results: Results, plans: boolean): string[] {
  const s = results.search;
  if (!s?.runs.length) return [];
  const c = s.corpus;
  const label = (d: string) => (d === 'sqlite' ? 'SQLite' : 'PostgreSQL');
  const out = [
    '## Message search',
    '',
    `Corpus v${c.version}: ${fmt(c.messages)} messages over ${fmt(c.chats)} chats and ${fmt(c.people)} people ` +
      '(bench/search/corpus.ts: Zipf-distributed vocabulary of 30,000 words with accented ones, mostly short lines), ' +
      `generated once and cached. The searcher is a member of ${c.searcherChats} chats; ${s.queries} queries ` +
      `(${SHAPES.join(', ')}), ${s.timedPasses} timed passes after a warm-up, one query at a time. ` +
      '"HTTP" is GET /api/search/messages/ on Parley as built (20 results a page, with the page built); ' +
      '"index SQL" is search.repo.ts’s statement alone in the bench’s process; "LIKE" is one prepared ' +
      "`body LIKE '%word%'` statement (ILIKE on PostgreSQL) with the same membership filter, which does not fold " +
      'accents. "bg" is other work on the machine in cores (PostgreSQL’s own counts as other work).',
    '',
  ];
  const rows = s.runs.flatMap((r) =>
    (['http', 'sql', 'like'] as const).map((way) => {
      const t = r[way];
      return [
        label(r.dialect),
        { http: 'HTTP', sql: 'index SQL', like: 'LIKE' }[way],
        fmt(t.p50, 1),
        fmt(t.p95, 1),
        fmt(t.max, 1),
        ...SHAPES.map((shape) => fmt(t.byShape[shape]?.p95 ?? Number.NaN, 1)),
        fmt(t.meanHits, 1),
        fmt(t.backgroundCores, 2),
      ];
    }),
  );
  out.push(
    table(
      [
        'Database',
        'Way',
        'p50 ms',
        'p95 ms',
        'max ms',
        ...SHAPES.map((x) => `${x} p95`),
        'Hits / query',
        'bg',
      ],
      rows,
    ),
    '',
  );
  out.push(
    table(
      ['Database', 'Index per 1M messages', 'Parts', 'Total', 'Without the index'],
      s.runs.map((r) => [
        label(r.dialect),
        mib(r.index.indexBytesPerMillion),
        Object.entries(r.index.parts)
          .map(([name, bytes]) => `${name} ${mib(bytes)}`)
          .join(', '),
        mib(r.index.totalBytes),
        mib(r.index.withoutBytes),
      ]),
    ),
    '',
    'SQLite’s total is the whole database file; PostgreSQL’s is `pg_total_relation_size(messages)`, the tsvector ' +
      'column counted by `pg_column_size`.',
    '',
  );
  for (const r of s.runs) {
    if (!plans || !r.plan) continue;
    const q = r.plan.query;
    out.push(
      `Plan of the slowest HTTP query (by its fastest pass) on ${label(r.dialect)} (${q.shape}: \`${q.q}\`${q.from ? ` from ${q.from}` : ''}, ${fmt(r.plan.ms, 1)} ms):`,
      '',
      '```',
      r.plan.text,
      '```',
      '',
    );
  }
  return out;
}
