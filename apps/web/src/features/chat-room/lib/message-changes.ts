import type { Message, Reaction } from '@parley/protocol';

// What the room reads off its list of messages: who just reacted, and what the Up arrow edits.

/**
 * Who added which reaction between two states of a message's reactions, when it was someone other than this
 * reader (what the room announces to screen readers); null when nobody else added one (a reaction taken back,
 * or one's own, echoed).
 */
export function reactionAdded(
  before: Reaction[],
  after: Reaction[],
  meId: number,
): { user_id: number; emoji: string } | null {
  for (const r of after) {
    const had = new Set(before.find((b) => b.emoji === r.emoji)?.user_ids);
    const user_id = r.user_ids.find((id) => id !== meId && !had.has(id));
    if (user_id !== undefined) return { user_id, emoji: r.emoji };
  }
  return null;
}

/** This reader's own last message that can still be edited (Up arrow in an empty composer). */
export function lastEditable(list: Message[], meId: number): Message | null {
  for (let i = list.length - 1; i >= 0; i--) {
    const m = list[i]!;
    if (m.sender === meId && m.kind === 'user' && !m.is_deleted && m.body) return m;
  }
  return null;
}
