import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type SQLite from 'better-sqlite3';
import { openFloorStore } from './floor-store';
import { chatMessage } from './message-shape';
import { type ChatFrame, sendToAll, serveRooms } from './ws-rooms';

// The store floor: the optimal ws peer (bare-ws.ts) that also keeps every message before it broadcasts it, as
// well as a practitioner keeps messages in SQLite, to show what storing alone costs a chat server. Each message
// is written to a table shaped as Parley's (its columns, its unique (client_id, sender, chat) key, its (chat, id)
// index and its FTS5 search index kept by trigger), in WAL mode with synchronous=NORMAL; the frames read in one
// turn of the event loop share one transaction and one multi-row INSERT, its statement prepared once per row
// count, and are broadcast once committed, with the ids the INSERT returned. Nothing else: no auth, no
// membership check, no rate limit, no foreign keys, no notifications.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-ws-sqlite-'));
const db = openFloorStore(path.join(dir, 'messages.db'));
const begin = db.prepare('BEGIN');
const commit = db.prepare('COMMIT');
const inserts = new Map<number, SQLite.Statement>();
/** One INSERT of `rows` messages, prepared the first time that many are written at once. */
function insertOf(rows: number): SQLite.Statement {
  let statement = inserts.get(rows);
  if (!statement) {
    const values = Array.from({ length: rows }, () => "(?, ?, 'user', ?, ?, ?, NULL, '[]')").join(', ');
    statement = db
      .prepare(
        `INSERT INTO messages (chat_id, sender_id, kind, client_id, body, created_at, reply_to_id, mentions) VALUES ${values} RETURNING id`,
      )
      .pluck();
    inserts.set(rows, statement);
  }
  return statement;
}

const MAX_BATCH = 500;

let queue: ChatFrame[] = [];
/** Writes what the last turn of the event loop read, in one transaction, then broadcasts it. */
function drain() {
  while (queue.length > 0) {
    const batch = queue.slice(0, MAX_BATCH);
    queue = queue.slice(MAX_BATCH);
    const createdAt = new Date().toISOString();
    const args: unknown[] = [];
    for (const q of batch) args.push(q.room, q.sender, q.clientId, q.body, createdAt);
    begin.run();
    let ids: number[];
    try {
      ids = insertOf(batch.length).all(...args) as number[];
      commit.run();
    } catch {
      db.exec('ROLLBACK');
      continue; // a resend of a stored client_id: the real server looks it up; the floor drops the batch
    }
    batch.forEach((q, i) => {
      const message = { ...chatMessage(q.sender, q.room, q.body, q.clientId), id: ids[i] };
      sendToAll(
        q.members,
        Buffer.from(JSON.stringify({ type: 'chat_message', message, client_id: q.clientId })),
      );
    });
  }
}

serveRooms(
  (frame) => {
    if (queue.length === 0) setImmediate(drain);
    queue.push(frame);
  },
  {
    ws: { clientTracking: false },
    onStop: () => {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  },
);
