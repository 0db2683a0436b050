import { seededPersonNames } from '@parley/fixtures';

// The peers answer with the same JSON shapes Parley does (packages/protocol's Message and ServerFrame), and
// name senders as the seeded Parley database does (user id n is bench_u<n>), so every server under test moves
// the same bytes per delivery.
let nextId = 0;

export function chatMessage(sender: number, chatroom: string, body: string, clientId: string | null) {
  const names = seededPersonNames('bench', sender);
  return {
    id: ++nextId,
    sender,
    sender_name: `${names.first_name} ${names.last_name}`,
    sender_username: names.username,
    sender_avatar: null,
    body,
    files: [],
    is_read: false,
    is_delivered: false,
    is_sent: true,
    is_error: false,
    kind: 'user',
    timestamp: new Date().toISOString(),
    chatroom,
    client_id: clientId,
  };
}

/** A client frame as Parley's protocol defines it; null when it is not a usable chat_message. */
export function parseChatFrame(raw: string): { body: string; client_id: string | null } | null {
  try {
    const frame = JSON.parse(raw) as { type?: unknown; body?: unknown; client_id?: unknown };
    if (frame.type !== 'chat_message' || typeof frame.body !== 'string') return null;
    return { body: frame.body, client_id: typeof frame.client_id === 'string' ? frame.client_id : null };
  } catch {
    return null;
  }
}
