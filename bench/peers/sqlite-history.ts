import Fastify from 'fastify';
import { MESSAGE_COLUMNS, MESSAGE_JOINS, type MessageRow, openParleyDb, toMessage } from './sqlite-message';

// The history page's reading peer: a bare Fastify route that reads the chat's newest 50 messages of the main
// timeline (thread-only replies left out, on the (chat_id, in_timeline, id) index Parley's page uses) from
// Parley's own SQLite file with one prepared better-sqlite3 statement, and returns them oldest first in Parley's
// Message shape (sqlite-message.ts). No auth, no membership check.
const db = openParleyDb();
const page = db.prepare(`
  SELECT ${MESSAGE_COLUMNS}
    FROM chats c
    JOIN messages m ON m.chat_id = c.id
    ${MESSAGE_JOINS}
   WHERE c.chat_id = ? AND m.in_timeline = 1
   ORDER BY m.id DESC
   LIMIT 50`);

const app = Fastify({ logger: false });
app.get('/health', async () => ({ status: 'ok' }));
app.get<{ Params: { chatId: string } }>('/api/chats/:chatId/messages/', async (req) => {
  const rows = page.all(req.params.chatId) as MessageRow[];
  return rows.reverse().map((r) => toMessage(r, req.params.chatId));
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => process.exit(0));
