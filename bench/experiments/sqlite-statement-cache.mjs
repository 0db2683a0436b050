// An experiment, not part of `npm run bench`: preloaded into Parley (`npx tsx bench/profile.ts --preload
// bench/experiments/sqlite-statement-cache.mjs`), it makes better-sqlite3's prepare() return a cached statement
// per SQL text, which is what a statement cache in apps/server/src/db/database.ts would do. Kysely's SQLite
// driver prepares every query afresh; statements are reusable as long as they are not iterated concurrently,
// and Kysely only calls all() and run() on them.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
/** @type {{ prototype: { prepare(sql: string): any } }} */
const Database = require('better-sqlite3');
const prepare = Database.prototype.prepare;
const caches = new WeakMap();
Database.prototype.prepare = function cachedPrepare(/** @type {string} */ sql) {
  let cache = caches.get(this);
  if (!cache) {
    cache = new Map();
    caches.set(this, cache);
  }
  let statement = cache.get(sql);
  if (!statement) {
    statement = prepare.call(this, sql);
    if (cache.size < 1000) cache.set(sql, statement);
  }
  return statement;
};
