import path from 'node:path';
import { DELETED_USERNAME, displayNameOf, REPLY_QUOTE_LENGTH } from '@parley/protocol';
import Database from 'better-sqlite3';

// What the SQLite-reading peers (sqlite-history.ts, sqlite-channels.ts) share: Parley's own SQLite file opened
// read-only, the columns and joins that give a message `m` with its sender's names, the quote it answers, its
// files, its reactions (where it has any) and, on a thread's root, the thread's participants, all inside the
// peer's one statement, and the row made into Parley's Message shape. No ticks (is_read and is_delivered stay
// false), no signed file URLs, no blocks: what Parley does beyond this is its cost.

/** BENCH_DATA_DIR/parley.db, read-only. */
export const openParleyDb = () =>
  new Database(path.join(process.env.BENCH_DATA_DIR as string, 'parley.db'), {
    readonly: true,
    fileMustExist: true,
  });

/** The select list of a message `m`, to go with MESSAGE_JOINS. */
export const MESSAGE_COLUMNS = `
  m.id, m.sender_id, m.kind, m.client_id, m.body, m.created_at, m.edited_at, m.deleted_at, m.mentions,
  m.thread_root_id, m.in_timeline, m.thread_reply_count, m.thread_last_reply_at, m.forwarded, m.link_preview,
  m.app_name, u.username, u.first_name, u.last_name, u.displayname, u.avatar, u.is_bot,
  q.id AS q_id, q.body AS q_body, q.deleted_at AS q_deleted_at, q.kind AS q_kind, q.sender_id AS q_sender_id,
  qu.username AS q_username, qu.first_name AS q_first_name, qu.last_name AS q_last_name,
  qu.displayname AS q_displayname,
  (SELECT json_group_array(json_object('id', f.id, 'type', f.type, 'file', f.storage_key, 'name', f.name,
          'size', f.size, 'thumbnail', f.thumb_key))
     FROM files f WHERE f.message_id = m.id) AS files,
  CASE WHEN m.reaction_count > 0 THEN
    (SELECT json_group_array(json_array(r.emoji, r.user_id)) FROM message_reactions r
      WHERE r.message_id = m.id ORDER BY r.id)
  END AS reactions,
  CASE WHEN m.thread_reply_count > 0 THEN
    (SELECT json_group_array(t.user_id) FROM (SELECT user_id FROM thread_follows
      WHERE root_id = m.id AND first_reply_id IS NOT NULL ORDER BY first_reply_id) t)
  END AS participants`;

export const MESSAGE_JOINS = `
  LEFT JOIN users u ON u.id = m.sender_id
  LEFT JOIN messages q ON q.id = m.reply_to_id AND q.chat_id = m.chat_id
  LEFT JOIN users qu ON qu.id = q.sender_id`;

export interface MessageRow {
  id: number;
  sender_id: number | null;
  kind: 'user' | 'system';
  client_id: string | null;
  body: string;
  created_at: string;
  edited_at: string | null;
  deleted_at: string | null;
  mentions: string;
  thread_root_id: number | null;
  in_timeline: number;
  thread_reply_count: number;
  thread_last_reply_at: string | null;
  forwarded: number;
  link_preview: string | null;
  app_name: string | null;
  username: string | null;
  first_name: string | null;
  last_name: string | null;
  displayname: string | null;
  avatar: string | null;
  is_bot: number | null;
  q_id: number | null;
  q_body: string | null;
  q_deleted_at: string | null;
  q_kind: string | null;
  q_sender_id: number | null;
  q_username: string | null;
  q_first_name: string | null;
  q_last_name: string | null;
  q_displayname: string | null;
  files: string;
  reactions: string | null;
  participants: string | null;
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

export function toMessage(r: MessageRow, chatroom: string) {
  const deleted = r.deleted_at !== null;
  const system = r.kind === 'system';
  return {
    id: r.id,
    sender: r.sender_id,
    sender_name: system ? '' : nameOf(r.username, r.first_name, r.last_name, r.displayname),
    sender_username: r.username ?? (system ? '' : DELETED_USERNAME),
    sender_avatar: r.avatar ? `/media/avatars/${r.avatar}` : null,
    sender_is_bot: r.is_bot === 1,
    sender_is_app: r.app_name !== null,
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
            sender_id: r.q_kind === 'system' ? null : r.q_sender_id,
            body: r.q_deleted_at !== null ? '' : [...(r.q_body ?? '')].slice(0, REPLY_QUOTE_LENGTH).join(''),
            is_deleted: r.q_deleted_at !== null,
          },
    reactions: deleted ? [] : reactionsOf(r.reactions),
    mentions: deleted || r.mentions === '[]' ? [] : (JSON.parse(r.mentions) as number[]),
    thread_root: r.thread_root_id,
    also_in_chat: r.thread_root_id !== null && r.in_timeline === 1,
    thread:
      r.thread_reply_count > 0 && r.thread_last_reply_at !== null
        ? {
            reply_count: r.thread_reply_count,
            last_reply_at: r.thread_last_reply_at,
            participant_ids: JSON.parse(r.participants ?? '[]') as number[],
          }
        : null,
    ...(r.forwarded ? { forwarded: true } : {}),
    link_preview: r.link_preview && !deleted ? (JSON.parse(r.link_preview) as unknown) : null,
    // The scenarios seed no polls: a poll's counts and the reader's choices are Parley's work beyond this.
    poll: null,
  };
}
