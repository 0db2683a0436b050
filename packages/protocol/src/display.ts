import { DELETED_DISPLAY_NAME, DELETED_USERNAME, PREVIEW_LENGTH } from './constants';

// Display rules (SPEC §4), pure so they can be tested at their edges.
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** 'just now' under 60 s, 'N min ago' under 1 h, 'N hr ago' under 24 h, otherwise a full local date and time. */
export function lastSeenText(lastSeen: string | Date, now: Date = new Date(), locale?: string): string {
  const at = typeof lastSeen === 'string' ? new Date(lastSeen) : lastSeen;
  const diff = Math.max(0, now.getTime() - at.getTime());
  if (diff < MINUTE) return 'just now';
  if (diff < HOUR) return `${Math.floor(diff / MINUTE)} min ago`;
  if (diff < DAY) return `${Math.floor(diff / HOUR)} hr ago`;
  return at.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A count above 999 shows as the thousands rounded down followed by 'K+'; otherwise the plain number. */
export function abbreviateCount(count: number): string {
  return count > 999 ? `${Math.floor(count / 1000)}K+` : String(count);
}

/** 'Joined' month and year, e.g. 'November 2026'. */
export function joinedMonthYear(date: string | Date, locale?: string): string {
  return new Date(date).toLocaleDateString(locale, { month: 'long', year: 'numeric' });
}

/** Chat list time: the time of day if under 24 h old, otherwise a short month and day. */
export function chatListTime(at: string | Date, now: Date = new Date(), locale?: string): string {
  const date = new Date(at);
  if (now.getTime() - date.getTime() < DAY) {
    return date.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });
  }
  return date.toLocaleDateString(locale, { month: 'short', day: 'numeric' });
}

/** Day heading in a chat room: 'Today', 'Yesterday', or a short date with year. */
export function dayLabel(at: string | Date, now: Date = new Date(), locale?: string): string {
  const date = new Date(at);
  const startOf = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const days = Math.round((startOf(now) - startOf(date)) / DAY);
  if (days === 0) return 'Today';
  if (days === 1) return 'Yesterday';
  return date.toLocaleDateString(locale, { month: 'short', day: 'numeric', year: 'numeric' });
}

/** Last message and notification preview: 40 characters plus '...'. */
export function previewText(text: string): string {
  return text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH)}...` : text;
}

/**
 * A person's name wherever a screen shows one (a message's sender, a chat member, a private chat): the full
 * name, else the display name, else the username, as SPEC §2 puts it for the public profile. Missing fields (a
 * left join) count as blank.
 */
export function displayNameOf(p: {
  first_name?: string | null;
  last_name?: string | null;
  displayname?: string | null;
  username: string;
}): string {
  const full = `${p.first_name ?? ''} ${p.last_name ?? ''}`.trim();
  return full || p.displayname?.trim() || p.username;
}

/** A chat member as the room names them: `name` (the server's displayNameOf), 'Deleted User' for a deleted account. */
export function memberNameOf(member: { username: string; name: string }): string {
  return member.username === DELETED_USERNAME ? DELETED_DISPLAY_NAME : member.name.trim() || member.username;
}

/** A private chat's name: the other member's, or 'Deleted User' when there is no other member any more. */
export function privateChatName(partner: { username: string; name: string } | null | undefined): string {
  return partner ? memberNameOf(partner) : DELETED_DISPLAY_NAME;
}
