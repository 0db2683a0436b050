import { CHANNELS_PAGE_SIZE, directoryQueryWords, THREAD_PAGE_SIZE } from '@parley/protocol';
import type { Statement } from 'better-sqlite3';
import Fastify from 'fastify';
import { MESSAGE_COLUMNS, MESSAGE_JOINS, type MessageRow, openParleyDb, toMessage } from './sqlite-message';

// The channels scenario's reading peer: bare Fastify routes for the directory and a thread's page, each answered
// from Parley's own SQLite file with one prepared better-sqlite3 statement, in Parley's JSON shapes, as the person
// BENCH_VIEWER_ID (is_member, following). No auth, no membership check, no ticks.
const db = openParleyDb();
const viewer = Number(process.env.BENCH_VIEWER_ID);

// The directory: public groups whose folded words start with each word asked (directory_words LIKE '% word%'),
// most members first by the count Parley's triggers keep on the chat row, in the order of its chats_directory
// (visibility, member_count, id) index.
const directoryOf = new Map<number, Statement>();
const directory = (words: number) => {
  let statement = directoryOf.get(words);
  if (!statement) {
    statement = db.prepare(`
      SELECT c.chat_id, c.name, c.description, c.avatar, c.last_activity_at,
             c.member_count,
             EXISTS (SELECT 1 FROM chat_members me WHERE me.chat_id = c.id AND me.user_id = @viewer) AS is_member
        FROM chats c
       WHERE c.visibility = 'public' AND c.is_private = 0
             ${Array.from({ length: words }, (_, i) => `AND c.directory_words LIKE @w${i}`).join(' ')}
       ORDER BY c.member_count DESC, c.id DESC
       LIMIT @limit OFFSET @offset`);
    directoryOf.set(words, statement);
  }
  return statement;
};

interface ChannelRow {
  chat_id: string;
  name: string;
  description: string;
  avatar: string | null;
  last_activity_at: string;
  member_count: number;
  is_member: number;
}

// A thread's page: its root (a message of the chat in no thread) and the replies after the cursor on the
// (thread_root_id, id) index, each joined to its message by primary key; the viewer's follow read once.
const thread = db.prepare(`
  WITH root AS (
    SELECT m.id FROM chats c JOIN messages m ON m.chat_id = c.id
     WHERE c.chat_id = @chat AND m.id = @root AND m.thread_root_id IS NULL),
  page AS (
    SELECT id FROM root
    UNION ALL
    SELECT * FROM (SELECT r.id FROM messages r
                    WHERE r.thread_root_id = @root AND r.id > @after AND EXISTS (SELECT 1 FROM root)
                    ORDER BY r.id LIMIT @limit))
  SELECT ${MESSAGE_COLUMNS},
         (SELECT f.following FROM thread_follows f WHERE f.root_id = @root AND f.user_id = @viewer) AS following
    FROM page p
    JOIN messages m ON m.id = p.id
    ${MESSAGE_JOINS}
   ORDER BY m.id`);

const cursorOf = (offset: number) => Buffer.from(`o${offset}`).toString('base64url');
const offsetOf = (cursor: string | undefined) =>
  cursor ? Number(Buffer.from(cursor, 'base64url').toString('utf8').slice(1)) : 0;

const app = Fastify({ logger: false });
app.get('/health', async () => ({ status: 'ok' }));
app.get<{ Querystring: { q?: string; cursor?: string } }>('/api/channels/', async (req) => {
  const words = directoryQueryWords(req.query.q ?? '');
  const offset = offsetOf(req.query.cursor);
  const params: Record<string, unknown> = { viewer, limit: CHANNELS_PAGE_SIZE + 1, offset };
  words.forEach((w, i) => {
    params[`w${i}`] = `% ${w}%`;
  });
  const rows = directory(words.length).all(params) as ChannelRow[];
  return {
    results: rows.slice(0, CHANNELS_PAGE_SIZE).map((c) => ({
      chat_id: c.chat_id,
      group_name: c.name,
      description: c.description,
      avatar: c.avatar ? `/media/avatars/${c.avatar}` : null,
      member_count: c.member_count,
      is_member: c.is_member === 1,
      last_activity_at: c.last_activity_at,
    })),
    next_cursor: rows.length > CHANNELS_PAGE_SIZE ? cursorOf(offset + CHANNELS_PAGE_SIZE) : null,
  };
});
app.get<{
  Params: { chatId: string; rootId: string };
  Querystring: { cursor?: string; limit?: string };
}>('/api/chats/:chatId/messages/:rootId/thread/', async (req, reply) => {
  const limit = Number(req.query.limit ?? THREAD_PAGE_SIZE);
  const rows = thread.all({
    chat: req.params.chatId,
    root: Number(req.params.rootId),
    after: Number(req.query.cursor ?? 0),
    limit: limit + 1,
    viewer,
  }) as (MessageRow & { following: number | null })[];
  const [root, ...replies] = rows;
  if (!root) return reply.code(404).send({ detail: 'Not found.' });
  const shown = replies.slice(0, limit);
  return {
    root: toMessage(root, req.params.chatId),
    results: shown.map((r) => toMessage(r, req.params.chatId)),
    next_cursor: replies.length > limit ? String(shown.at(-1)?.id) : null,
    following: root.following === 1,
  };
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => process.exit(0));
