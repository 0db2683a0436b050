// The server's public entry (package.json "exports") for code outside the app, the benchmarks: its
// configuration, its database opened and migrated as the app does it, the seeding the scale tests use, and the
// pieces a benchmark times on their own (the search statement and its query terms, the session token hash).
// The app never imports this file; the dependency rules (.dependency-cruiser.cjs) keep bench/ to it.
export { type Config, loadConfig } from './config';
export { createDb, type Db, type DialectName } from './db/database';
export { migrateToLatest } from './db/migrate';
export type { Database } from './db/schema';
export { hashToken } from './modules/accounts/session.service';
export { type MessageSearch, searchMessages } from './modules/search/search.repo';
export { parseSearch, toFts5, toTsquery } from './modules/search/search-query';
export { deferred } from './test-support/deferred';
export { insertInBatches, type Person, seedPeople } from './test-support/seed-people';
