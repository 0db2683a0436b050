import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../database';

// Search. The indexes live in the database and follow every write, edit and deletion inside its own
// transaction: triggers on SQLite (FTS5, unicode61 without diacritics), a generated tsvector with a GIN index on
// PostgreSQL (an unaccenting text search configuration). Words match whole and by prefix, ignoring case and accents.

/** Every word a person may be found by; `p` is the row's name in the statement ('' for the table's own). */
const userNames = (p: string) =>
  ['username', 'displayname', 'first_name', 'last_name']
    .map((c) => (p ? `${p}.${c}` : c))
    .join(" || ' ' || ");

async function sqliteUp(db: Kysely<any>) {
  await sql`CREATE VIRTUAL TABLE messages_fts USING fts5(body, content='messages', content_rowid='id', tokenize='unicode61 remove_diacritics 2')`.execute(
    db,
  );
  await sql`CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts(rowid, body) VALUES (new.id, new.body);
  END`.execute(db);
  await sql`CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
    INSERT INTO messages_fts(messages_fts, rowid, body) VALUES ('delete', old.id, old.body);
  END`.execute(db);
  await sql`CREATE TRIGGER messages_fts_update AFTER UPDATE OF body ON messages BEGIN
    INSERT INTO messages_fts(messages_fts, rowid, body) VALUES ('delete', old.id, old.body);
    INSERT INTO messages_fts(rowid, body) VALUES (new.id, new.body);
  END`.execute(db);
  await sql`INSERT INTO messages_fts(messages_fts) VALUES ('rebuild')`.execute(db);

  // People by every word of their names; rowid is the user id.
  await sql`CREATE VIRTUAL TABLE users_fts USING fts5(names, tokenize='unicode61 remove_diacritics 2')`.execute(
    db,
  );
  await sql
    .raw(`CREATE TRIGGER users_fts_insert AFTER INSERT ON users BEGIN
    INSERT INTO users_fts(rowid, names) VALUES (new.id, ${userNames('new')});
  END`)
    .execute(db);
  await sql`CREATE TRIGGER users_fts_delete AFTER DELETE ON users BEGIN
    DELETE FROM users_fts WHERE rowid = old.id;
  END`.execute(db);
  await sql
    .raw(`CREATE TRIGGER users_fts_update AFTER UPDATE OF username, displayname, first_name, last_name ON users BEGIN
    DELETE FROM users_fts WHERE rowid = old.id;
    INSERT INTO users_fts(rowid, names) VALUES (new.id, ${userNames('new')});
  END`)
    .execute(db);
  await sql
    .raw(`INSERT INTO users_fts(rowid, names) SELECT u.id, ${userNames('u')} FROM users u`)
    .execute(db);
}

/**
 * unaccent is database-wide: processes (or test files, each in its own schema) migrating at once may race to
 * create it. The loser's statement fails once the winner commits; a savepoint keeps the migration's transaction.
 */
async function ensureUnaccent(db: Kysely<any>) {
  await sql`SAVEPOINT parley_unaccent`.execute(db);
  try {
    await sql`CREATE EXTENSION IF NOT EXISTS unaccent SCHEMA public`.execute(db);
  } catch (err) {
    await sql`ROLLBACK TO SAVEPOINT parley_unaccent`.execute(db);
    const found = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'unaccent'`.execute(db);
    if ((found.rows[0]?.n ?? 0) === 0) throw err;
  }
  await sql`RELEASE SAVEPOINT parley_unaccent`.execute(db);
}

async function postgresUp(db: Kysely<any>) {
  await ensureUnaccent(db);
  await sql`CREATE TEXT SEARCH CONFIGURATION parley_search (COPY = pg_catalog.simple)`.execute(db);
  await sql`ALTER TEXT SEARCH CONFIGURATION parley_search
    ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part, numword, numhword, hword_numpart
    WITH public.unaccent, pg_catalog.simple`.execute(db);
  await sql`ALTER TABLE messages ADD COLUMN search tsvector
    GENERATED ALWAYS AS (to_tsvector('parley_search', body)) STORED`.execute(db);
  await sql`CREATE INDEX messages_search ON messages USING gin (search)`.execute(db);
  await sql
    .raw(`ALTER TABLE users ADD COLUMN search tsvector
    GENERATED ALWAYS AS (to_tsvector('parley_search', ${userNames('')})) STORED`)
    .execute(db);
  await sql`CREATE INDEX users_search ON users USING gin (search)`.execute(db);
}

export const searchMigration = (dialect: DialectName): Migration => ({
  async up(db: Kysely<any>) {
    if (dialect === 'postgres') await postgresUp(db);
    else await sqliteUp(db);
  },
});
