import { GROUP_INVITE_MAX_USES, type GroupInvite } from '@parley/protocol';

// The invite links section's choices and words: how long a new link lasts, how many people it may bring in,
// and what each listed link has left.

/** How long a new link lasts, in hours; '' is a link that never expires (nothing is sent). */
export const EXPIRY_CHOICES = [
  { hours: '1', label: '1 hour' },
  { hours: '24', label: '1 day' },
  { hours: '168', label: '7 days' },
  { hours: '720', label: '30 days' },
  { hours: '', label: 'Never' },
] as const;
export const DEFAULT_EXPIRY_HOURS = '168';

export const MAX_USES_PROBLEM = `Enter a whole number from 1 to ${GROUP_INVITE_MAX_USES}, or leave it empty.`;

/** The max uses typed: null for no limit, a number within the server's range, or undefined when it is not one. */
export function parseMaxUses(typed: string): number | null | undefined {
  const text = typed.trim();
  if (text === '') return null;
  if (!/^\d+$/.test(text)) return undefined;
  const n = Number(text);
  return n >= 1 && n <= GROUP_INVITE_MAX_USES ? n : undefined;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** '3 uses', '1 of 10 uses'. */
export const inviteUsesText = ({ uses, max_uses }: Pick<GroupInvite, 'uses' | 'max_uses'>): string =>
  max_uses === null ? plural(uses, 'use') : `${uses} of ${plural(max_uses, 'use')}`;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** 'Never expires', 'Expires in 45 minutes', 'Expires in 5 hours', 'Expires in 7 days' (rounded up). */
export function inviteExpiryText(expiresAt: string | null, now: number = Date.now()): string {
  if (expiresAt === null) return 'Never expires';
  const left = new Date(expiresAt).getTime() - now;
  if (!(left > 0)) return 'Expired';
  if (left < HOUR) return `Expires in ${plural(Math.ceil(left / MINUTE), 'minute')}`;
  if (left < 2 * DAY) return `Expires in ${plural(Math.ceil(left / HOUR), 'hour')}`;
  return `Expires in ${plural(Math.ceil(left / DAY), 'day')}`;
}
