import { type ChatMember, DELETED_USERNAME, memberNameOf, mentionSpans } from '@parley/protocol';

// @username in message bodies: the parts of a body to draw, with the members it mentions linked,
// and the composer's suggestions while a name is being typed. The names are found by the protocol's
// mentionSpans, as the server finds them to store `mentions`.

export type BodyPart = { kind: 'text'; text: string } | { kind: 'mention'; text: string; username: string };

/**
 * Splits a body into text and mentions. `usernames` maps a lower-cased username to how the member spells it;
 * only those are mentions (an address, or a name that is not a member, stays text).
 */
export function splitMentions(body: string, usernames: ReadonlyMap<string, string>): BodyPart[] {
  const parts: BodyPart[] = [];
  let at = 0;
  const pushText = (text: string) => {
    if (!text) return;
    const last = parts[parts.length - 1];
    if (last?.kind === 'text') last.text += text;
    else parts.push({ kind: 'text', text });
  };
  if (usernames.size > 0) {
    for (const { name, start, end } of mentionSpans(body)) {
      const username = usernames.get(name.toLowerCase());
      if (!username) continue;
      pushText(body.slice(at, start));
      parts.push({ kind: 'mention', text: `@${name}`, username });
      at = end;
    }
  }
  pushText(body.slice(at));
  return parts;
}

/** The @name being typed just before the caret: where its '@' is and what follows it so far. */
export function mentionQuery(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const m = /(^|[^\p{L}\p{N}._@-])@([\p{L}\p{N}._-]*)$/u.exec(before);
  if (!m) return null;
  const query = m[2] ?? '';
  return { start: before.length - query.length - 1, query };
}

export interface MentionCandidate {
  id: number;
  username: string;
  name: string;
  avatar: string | null;
}

/** Members (never oneself or a deleted account) whose username or name starts with the query, at most `max`. */
export function suggestMembers(
  members: ChatMember[],
  query: string,
  meId: number,
  max = 6,
): MentionCandidate[] {
  const q = query.toLowerCase();
  const out: MentionCandidate[] = [];
  for (const member of members) {
    if (member.id === null || member.id === meId || member.username === DELETED_USERNAME) continue;
    const name = memberNameOf(member);
    const words = name.toLowerCase().split(/\s+/);
    if (!member.username.toLowerCase().startsWith(q) && !words.some((w) => w.startsWith(q))) continue;
    out.push({ id: member.id, username: member.username, name, avatar: member.avatar });
    if (out.length === max) break;
  }
  return out;
}

/** The text with the @name being typed replaced by the chosen username and a space, and the caret after it. */
export function insertMention(
  text: string,
  at: { start: number; query: string },
  username: string,
): { text: string; caret: number } {
  const inserted = `@${username} `;
  const end = at.start + 1 + at.query.length;
  const rest = text.slice(end).replace(/^ /, '');
  return { text: text.slice(0, at.start) + inserted + rest, caret: at.start + inserted.length };
}
