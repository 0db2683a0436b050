// An experiment, not part of `npm run bench`: what the order of the messages table's unique client key costs
// SQLite to store a message (bench/findings/2026-11-27-client-key-order.md). It writes 200,000 messages from 1,000 senders
// in 100 chats, 218 to a transaction (a batch of Parley's writer in rooms of 10 at saturation), into the store
// floor's table (bench/peers/floor-store.ts: Parley's columns, its (chat, id) index and its FTS5 index by trigger)
// under each key, and prints the time of the INSERTs and of the COMMITs per message.
//
//   npx tsx bench/experiments/client-key-order.ts
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { FLOOR_CLIENT_KEY, openFloorStore } from '../peers/floor-store';

const MESSAGES = 200_000;
const BATCH = 218;

interface Variant {
  name: string;
  key: string;
  clientId: () => string;
}
const variants: Variant[] = [
  {
    name: '(sender, chat, client_id), random v4 ids',
    key: 'sender_id, chat_id, client_id',
    clientId: () => crypto.randomUUID(),
  },
  { name: '(sender, chat, client_id), UUIDv7 ids', key: 'sender_id, chat_id, client_id', clientId: uuidv7 },
  {
    name: '(client_id, sender, chat), random v4 ids',
    key: 'client_id, sender_id, chat_id',
    clientId: () => crypto.randomUUID(),
  },
  { name: '(client_id, sender, chat), UUIDv7 ids', key: FLOOR_CLIENT_KEY, clientId: uuidv7 },
  { name: 'no unique key (for reference)', key: '', clientId: uuidv7 },
];

for (const v of variants) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'client-key-'));
  const db = openFloorStore(path.join(dir, 'messages.db'), v.key || null);
  const rows = Array.from({ length: BATCH }, () => "(?, ?, 'user', ?, ?, ?, NULL, '[]')").join(', ');
  const insert = db.prepare(
    `INSERT INTO messages (chat_id, sender_id, kind, client_id, body, created_at, reply_to_id, mentions)
     VALUES ${rows} ON CONFLICT DO NOTHING RETURNING id`,
  );
  const begin = db.prepare('BEGIN');
  const commit = db.prepare('COMMIT');
  let n = 0;
  let inserting = 0;
  let committing = 0;
  while (n < MESSAGES) {
    const args: unknown[] = [];
    const at = new Date().toISOString();
    for (let i = 0; i < BATCH; i++, n++) {
      const sender = (n * 7919) % 1000;
      args.push(sender % 100, sender, v.clientId(), `message ${n} from the load generator, hello there`, at);
    }
    const t0 = performance.now();
    begin.run();
    insert.all(...args);
    const t1 = performance.now();
    commit.run();
    inserting += t1 - t0;
    committing += performance.now() - t1;
  }
  const per = (ms: number) => ((ms * 1000) / n).toFixed(1).padStart(5);
  console.log(
    `${v.name.padEnd(44)} INSERT ${per(inserting)} µs, COMMIT ${per(committing)} µs, both ${per(inserting + committing)} µs a message`,
  );
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
