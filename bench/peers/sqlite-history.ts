import path from 'node:path';
import { DELETED_USERNAME, displayNameOf, REPLY_QUOTE_LENGTH } from '@parley/protocol';
import Database from 'better-sqlite3';
import Fastify from 'fastify';

// The history page's reading peer: a bare Fastify route that reads the chat's newest 50 messages from Parley's
// own SQLite file (BENCH_DATA_DIR/parley.db, read-only) with one prepared better-sqlite3 statement — each
// message with its sender's names, the quote it answers, its files and (where it has any) its reactions — and
// returns them oldest first in Parley's Message shape. No auth, no membership check, no ticks (is_read and
// is_delivered stay false), no signed file URLs: what Parley does beyond this is its cost.
const db = new Database(path.join(process.env.BENCH_DATA_DIR as string, 'parley.db'), {
  readonly: true,
  fileMustExist: true,
});
const page = db.prepare(`
  SELECT m.id, m.sender_id, m.kind, m.client_id, m.body, m.created_at, m.edited_at, m.deleted_at, m.mentions,
         u.username, u.first_name, u.last_name, u.displayname, u.avatar,
         q.id AS q_id, q.body AS q_body, q.deleted_at AS q_deleted_at, q.kind AS q_kind,
         qu.username AS q_username, qu.first_name AS q_first_name, qu.last_name AS q_last_name,
         qu.displayname AS q_displayname,
         (SELECT json_group_array(json_object('id', f.id, 'type', f.type, 'file', f.storage_key, 'name', f.name,
                 'size', f.size, 'thumbnail', f.thumb_key))
            FROM files f WHERE f.message_id = m.id) AS files,
         CASE WHEN m.reaction_count > 0 THEN
           (SELECT json_group_array(json_array(r.emoji, r.user_id)) FROM message_reactions r
             WHERE r.message_id = m.id ORDER BY r.id)
         END AS reactions
    FROM chats c
    JOIN messages m ON m.chat_id = c.id
    LEFT JOIN users u ON u.id = m.sender_id
    LEFT JOIN messages q ON q.id = m.reply_to_id AND q.chat_id = m.chat_id
    LEFT JOIN users qu ON qu.id = q.sender_id
   WHERE c.chat_id = ?
   ORDER BY m.id DESC
   LIMIT 50`);

interface Row {
  id: number;
  sender_id: number | null;
  kind: 'user' | 'system';
  client_id: string | null;
  body: string;
  created_at: string;
  edited_at: string | null;
  deleted_at: string | null;
  mentions: string;
  username: string | null;
  first_name: string | null;
  last_name: string | null;
  displayname: string | null;
  avatar: string | null;
  q_id: number | null;
  q_body: string | null;
  q_deleted_at: string | null;
  q_kind: string | null;
  q_username: string | null;
  q_first_name: string | null;
  q_last_name: string | null;
  q_displayname: string | null;
  files: string;
  reactions: string | null;
}

const nameOf = (
  username: string | null,
  first: string | null,
  last: string | null,
  display: string | null,
) =>
  username === null
    ? ''
    : displayNameOf({ username, first_name: first ?? '', last_name: last ?? '', displayname: display ?? '' });

function reactionsOf(json: string | null) {
  if (!json) return [];
  const byEmoji = new Map<string, { emoji: string; count: number; me: boolean; user_ids: number[] }>();
  for (const [emoji, userId] of JSON.parse(json) as [string, number][]) {
    const r = byEmoji.get(emoji) ?? { emoji, count: 0, me: false, user_ids: [] };
    byEmoji.set(emoji, r);
    r.count += 1;
    r.user_ids.push(userId);
  }
  return [...byEmoji.values()];
}

function toMessage(r: Row, chatroom: string) {
  const deleted = r.deleted_at !== null;
  const system = r.kind === 'system';
  return {
    id: r.id,
    sender: r.sender_id,
    sender_name: system ? '' : nameOf(r.username, r.first_name, r.last_name, r.displayname),
    sender_username: r.username ?? (system ? '' : DELETED_USERNAME),
    sender_avatar: r.avatar ? `/media/avatars/${r.avatar}` : null,
    body: deleted ? '' : r.body,
    files: deleted ? [] : (JSON.parse(r.files) as unknown[]),
    is_read: false,
    is_delivered: false,
    is_sent: true,
    is_error: false,
    kind: r.kind,
    timestamp: r.created_at,
    chatroom,
    client_id: r.client_id,
    edited_at: r.edited_at,
    is_deleted: deleted,
    reply_to:
      r.q_id === null
        ? null
        : {
            id: r.q_id,
            sender_name:
              r.q_kind === 'system'
                ? ''
                : nameOf(r.q_username, r.q_first_name, r.q_last_name, r.q_displayname),
            body: r.q_deleted_at !== null ? '' : [...(r.q_body ?? '')].slice(0, REPLY_QUOTE_LENGTH).join(''),
            is_deleted: r.q_deleted_at !== null,
          },
    reactions: deleted ? [] : reactionsOf(r.reactions),
    mentions: deleted || r.mentions === '[]' ? [] : (JSON.parse(r.mentions) as number[]),
  };
}

const app = Fastify({ logger: false });
app.get('/health', async () => ({ status: 'ok' }));
app.get<{ Params: { chatId: string } }>('/api/chats/:chatId/messages/', async (req) => {
  const rows = page.all(req.params.chatId) as Row[];
  return rows.reverse().map((r) => toMessage(r, req.params.chatId));
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => process.exit(0));
