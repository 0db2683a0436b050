import fs from 'node:fs';
import path from 'node:path';
import { createDb, type Db, loadConfig, migrateToLatest, seedPeople } from '@parley/server';
import SQLite from 'better-sqlite3';
import { benchDir } from '../lib/proc';
import { messageBody, pick, type Random, seededRandom, vocabulary, zipf } from './words';

// The search corpus, generated once into a SQLite file under bench/.cache (named by CORPUS_VERSION, so a change
// to the generator makes a new one): the schema by Parley's own migrations, people by the seeding the scale tests
// use, then chats, members and messages by prepared inserts in large transactions; migration 0006's triggers
// index every message as it goes in. bench/search/postgres-corpus.ts copies the same rows into PostgreSQL.
export const CORPUS_VERSION = 1;
export const CORPUS = { messages: 1_000_000, chats: 5_000, people: 2_000, searcherChats: 50 } as const;
const SEED = 11;
/** The person who searches: users.id 1, a member of exactly CORPUS.searcherChats chats. */
export const SEARCHER_ID = 1;
/** Messages span this many days before the corpus's fixed end. */
const DAYS = 365;
const END = Date.parse('2026-11-01T00:00:00Z');

export const cacheDir = path.join(benchDir, '.cache');
export const corpusFile = () => path.join(cacheDir, `search-corpus-v${CORPUS_VERSION}.db`);

export interface CorpusInfo {
  file: string;
  generatedSeconds: number | null;
}

/** Chat sizes: most chats small, a few large (3 … 63 members). */
const chatSize = (random: Random) => 3 + Math.floor(random() ** 3 * 60);

function memberships(random: Random): number[][] {
  const members: number[][] = [];
  for (let c = 0; c < CORPUS.chats; c++) {
    const set = new Set<number>();
    const size = chatSize(random);
    // Person ids 2 … people: the searcher's chats are chosen below.
    while (set.size < size) set.add(2 + Math.floor(random() * (CORPUS.people - 1)));
    members.push([...set]);
  }
  const chosen = new Set<number>();
  while (chosen.size < CORPUS.searcherChats) chosen.add(Math.floor(random() * CORPUS.chats));
  for (const c of chosen) members[c]?.push(SEARCHER_ID);
  return members;
}

async function schemaAndPeople(file: string) {
  const { db, dialect } = createDb(loadConfig({ DATABASE_URL: `sqlite:${file}` }));
  try {
    await migrateToLatest(db, dialect);
    const people = await db
      .transaction()
      .execute((trx) => seedPeople(trx as unknown as Db, CORPUS.people, 'search'));
    if (people[0]?.id !== SEARCHER_ID) throw new Error('the corpus expects the first person to have id 1');
  } finally {
    await db.destroy();
  }
}

/** The corpus's vocabulary, most frequent first (the first draws of the corpus's random source). */
export const corpusWords = () => vocabulary(seededRandom(SEED));

function fill(file: string, log: (line: string) => void) {
  const random = seededRandom(SEED);
  const words = vocabulary(random);
  const members = memberships(random);
  const sqlite = new SQLite(file);
  sqlite.pragma('synchronous = OFF');
  sqlite.pragma('cache_size = -262144');
  const created = new Date(END - DAYS * 86_400_000).toISOString();
  const chat = sqlite.prepare(
    `INSERT INTO chats (id, chat_id, is_private, name, created_at, last_activity_at) VALUES (?, ?, 0, ?, ?, ?)`,
  );
  const member = sqlite.prepare(
    `INSERT INTO chat_members (chat_id, user_id, role, joined_at) VALUES (?, ?, ?, ?)`,
  );
  sqlite.transaction(() => {
    for (const [c, ids] of members.entries()) {
      chat.run(c + 1, `search-chat-${c + 1}`, `Search room ${c + 1}`, created, new Date(END).toISOString());
      for (const [i, u] of ids.entries()) member.run(c + 1, u, i === 0 ? 'admin' : 'member', created);
    }
  })();

  // Some chats are far busier than others: chat activity is Zipf-distributed too, over a shuffled order.
  const order = members.map((_, c) => c);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  const chatRank = zipf(CORPUS.chats, 0.8);
  const message = sqlite.prepare(
    `INSERT INTO messages (id, chat_id, sender_id, kind, client_id, body, created_at) VALUES (?, ?, ?, 'user', ?, ?, ?)`,
  );
  const step = (DAYS * 86_400_000) / CORPUS.messages;
  const batch = 50_000;
  for (let from = 1; from <= CORPUS.messages; from += batch) {
    sqlite.transaction(() => {
      for (let id = from; id < from + batch && id <= CORPUS.messages; id++) {
        const c = order[chatRank(random)] as number;
        const sender = pick(random, members[c] as number[]);
        const at = new Date(END - DAYS * 86_400_000 + id * step).toISOString();
        message.run(id, c + 1, sender, `c${id}`, messageBody(random, words), at);
      }
    })();
    if ((from - 1) % 200_000 === 0) log(`    corpus: ${(from - 1).toLocaleString('en-US')} messages`);
  }
  sqlite.exec('ANALYZE');
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  sqlite.close();
}

/** The cached corpus file, generated first if this version has none. */
export async function ensureCorpus(log: (line: string) => void): Promise<CorpusInfo> {
  const file = corpusFile();
  if (fs.existsSync(file)) return { file, generatedSeconds: null };
  fs.mkdirSync(cacheDir, { recursive: true });
  const building = `${file}.building`;
  for (const f of [building, `${building}-wal`, `${building}-shm`]) fs.rmSync(f, { force: true });
  const started = Date.now();
  log(`  generating the search corpus (${CORPUS.messages.toLocaleString('en-US')} messages) into ${file}`);
  await schemaAndPeople(building);
  fill(building, log);
  for (const f of [`${building}-wal`, `${building}-shm`]) fs.rmSync(f, { force: true });
  fs.renameSync(building, file);
  return { file, generatedSeconds: (Date.now() - started) / 1000 };
}
