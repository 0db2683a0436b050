// An experiment, not part of `npm run bench`: preloaded into Parley (`npx tsx bench/profile.ts --no-profile
// --preload bench/experiments/sqlite-query-timer.mjs`), it times every SQLite statement Parley prepares and
// runs, and on exit writes, per SQL text, how often it ran and the time spent preparing and running it, to
// $BENCH_QUERY_LOG (default: stderr).
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

const require = createRequire(import.meta.url);
/** @type {{ prototype: { prepare(sql: string): any } }} */
const Database = require('better-sqlite3');
/** @type {Map<string, { runs: number, runMs: number, prepares: number, prepareMs: number }>} */
const stats = new Map();
const entry = (/** @type {string} */ sql) => {
  let e = stats.get(sql);
  if (!e) {
    e = { runs: 0, runMs: 0, prepares: 0, prepareMs: 0 };
    stats.set(sql, e);
  }
  return e;
};

const prepare = Database.prototype.prepare;
Database.prototype.prepare = function timedPrepare(/** @type {string} */ sql) {
  const t = performance.now();
  const statement = prepare.call(this, sql);
  const e = entry(sql);
  e.prepares++;
  e.prepareMs += performance.now() - t;
  for (const method of ['all', 'run', 'get']) {
    const original = statement[method];
    if (typeof original !== 'function') continue;
    statement[method] = function timed(/** @type {unknown[]} */ ...args) {
      const start = performance.now();
      try {
        return original.apply(this, args);
      } finally {
        e.runs++;
        e.runMs += performance.now() - start;
      }
    };
  }
  return statement;
};

process.on('exit', () => {
  const rows = [...stats.entries()]
    .map(([sql, e]) => ({ sql: sql.replace(/\s+/g, ' ').slice(0, 160), ...e }))
    .sort((a, b) => b.runMs + b.prepareMs - (a.runMs + a.prepareMs));
  const lines = rows.map(
    (r) =>
      `${r.runs.toString().padStart(7)} runs ${(r.runMs / Math.max(1, r.runs)).toFixed(3).padStart(7)} ms` +
      ` | ${r.prepares.toString().padStart(7)} prepares ${(r.prepareMs / Math.max(1, r.prepares)).toFixed(3).padStart(7)} ms | ${r.sql}`,
  );
  const text = `${lines.join('\n')}\n`;
  if (process.env.BENCH_QUERY_LOG) writeFileSync(process.env.BENCH_QUERY_LOG, text);
  else process.stderr.write(text);
});
