import { explain, httpRunner, likeRunner, type Runner, senderIds, sqlRunner } from '../search/backends';
import { CORPUS, CORPUS_VERSION, ensureCorpus } from '../search/corpus';
import { type IndexSize, postgresIndexSize, sqliteIndexSize } from '../search/index-size';
import { TIMED_PASSES, type Timings, timeQueries } from '../search/measure';
import { ensurePostgresCorpus } from '../search/postgres-corpus';
import { type SearchQuery, searchQueries } from '../search/queries';
import { startCorpusServer } from '../search/server';
import type { BenchContext } from './context';

// Message search on a million messages: the searcher's 200 queries through Parley's HTTP route, the
// index's SQL alone, and a LIKE '%word%' scan of the same messages, on SQLite and on PostgreSQL; and the index's
// size on disk. The corpus is generated once (bench/search/corpus.ts) and kept between runs.
export interface SearchDialectRun {
  dialect: 'sqlite' | 'postgres';
  /** GET /api/search/messages/ on Parley as built, one request at a time over a kept-alive connection. */
  http: Timings;
  /** search.repo.ts's statement in the bench's process (no HTTP, no page building). */
  sql: Timings;
  like: Timings;
  index: IndexSize;
  /** The plan of the slowest HTTP query's statement. */
  plan: { query: SearchQuery; ms: number; text: string } | null;
}

export interface SearchResult {
  corpus: typeof CORPUS & {
    version: number;
    generatedSeconds: { sqlite: number | null; postgres: number | null };
  };
  queries: number;
  timedPasses: number;
  runs: SearchDialectRun[];
}

async function measure(
  ctx: BenchContext,
  dialect: 'sqlite' | 'postgres',
  database: string,
  queries: SearchQuery[],
  senders: Map<string, number>,
): Promise<SearchDialectRun> {
  const server = await startCorpusServer(
    dialect === 'sqlite' ? { sqliteFile: database } : { postgresUrl: database },
  );
  try {
    const http = await timeQueries(queries, httpRunner(server.url, server.token), server.proc.pid);
    const show = (way: string, t: Timings) =>
      ctx.log(
        `    ${dialect} ${way}: p50 ${t.p50.toFixed(1)} p95 ${t.p95.toFixed(1)} ms (bg ${t.backgroundCores.toFixed(2)} cores)`,
      );
    show('HTTP', http);
    const timeWith = async (open: () => Promise<{ run: Runner; close(): Promise<void> }>) => {
      const backend = await open();
      try {
        return await timeQueries(queries, backend.run);
      } finally {
        await backend.close();
      }
    };
    const sql = await timeWith(async () => sqlRunner(server.database, senders));
    show('index SQL', sql);
    const like = await timeWith(() => likeRunner(server.database, senders));
    show('LIKE', like);
    const index =
      dialect === 'sqlite' ? sqliteIndexSize(server.database) : await postgresIndexSize(server.database);
    const slowest = http.slowest;
    const plan = slowest
      ? {
          query: { shape: slowest.shape, q: slowest.q, ...(slowest.from ? { from: slowest.from } : {}) },
          ms: slowest.ms,
          text: await explain(server.database, slowest, senders),
        }
      : null;
    return { dialect, http, sql, like, index, plan };
  } finally {
    await server.stop();
  }
}

export async function runSearch(ctx: BenchContext): Promise<SearchResult> {
  const sqlite = await ensureCorpus(ctx.log);
  const postgres = await ensurePostgresCorpus(ctx.services.postgresUrl, sqlite.file, ctx.log);
  const queries = searchQueries(sqlite.file);
  const senders = senderIds(sqlite.file, [...new Set(queries.flatMap((q) => (q.from ? [q.from] : [])))]);
  const runs: SearchDialectRun[] = [];
  for (const [dialect, database] of [
    ['sqlite', sqlite.file],
    ['postgres', postgres.url],
  ] as const) {
    ctx.log(`  ${dialect}: ${queries.length} queries × ${TIMED_PASSES} timed passes each way`);
    runs.push(await measure(ctx, dialect, database, queries, senders));
  }
  return {
    corpus: {
      ...CORPUS,
      version: CORPUS_VERSION,
      generatedSeconds: { sqlite: sqlite.generatedSeconds, postgres: postgres.generatedSeconds },
    },
    queries: queries.length,
    timedPasses: TIMED_PASSES,
    runs,
  };
}
