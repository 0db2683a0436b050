import { GROUP_INVITE_MAX_USES, type GroupInvite } from '@parley/protocol';
import { t } from '../../../lib/i18n/i18n';

// The invite links section's choices and words: how long a new link lasts, how many people it may bring in,
// and what each listed link has left, in the reader's language.

/** How long a new link lasts, in hours; '' is a link that never expires (nothing is sent). */
export const EXPIRY_CHOICES: ReadonlyArray<{ hours: string; label: () => string }> = [
  { hours: '1', label: () => t('groups.invites.hours', { count: 1 }) },
  { hours: '24', label: () => t('groups.invites.days', { count: 1 }) },
  { hours: '168', label: () => t('groups.invites.days', { count: 7 }) },
  { hours: '720', label: () => t('groups.invites.days', { count: 30 }) },
  { hours: '', label: () => t('groups.invites.never') },
];
export const DEFAULT_EXPIRY_HOURS = '168';

export const maxUsesProblem = (): string =>
  t('groups.invites.maxUsesProblem', { max: GROUP_INVITE_MAX_USES });

/** The max uses typed: null for no limit, a number within the server's range, or undefined when it is not one. */
export function parseMaxUses(typed: string): number | null | undefined {
  const text = typed.trim();
  if (text === '') return null;
  if (!/^\d+$/.test(text)) return undefined;
  const n = Number(text);
  return n >= 1 && n <= GROUP_INVITE_MAX_USES ? n : undefined;
}

/** '3 uses', '1 of 10 uses'. */
export const inviteUsesText = ({ uses, max_uses }: Pick<GroupInvite, 'uses' | 'max_uses'>): string =>
  max_uses === null
    ? t('groups.invites.uses', { count: uses })
    : t('groups.invites.usesOf', { uses, count: max_uses });

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** 'Never expires', 'Expires in 45 minutes', 'Expires in 5 hours', 'Expires in 7 days' (rounded up). */
export function inviteExpiryText(expiresAt: string | null, now: number = Date.now()): string {
  if (expiresAt === null) return t('groups.invites.neverExpires');
  const left = new Date(expiresAt).getTime() - now;
  if (!(left > 0)) return t('groups.invites.expired');
  if (left < HOUR) return t('groups.invites.expiresMinutes', { count: Math.ceil(left / MINUTE) });
  if (left < 2 * DAY) return t('groups.invites.expiresHours', { count: Math.ceil(left / HOUR) });
  return t('groups.invites.expiresDays', { count: Math.ceil(left / DAY) });
}
