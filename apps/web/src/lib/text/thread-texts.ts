import { t } from '../i18n/i18n';
import { dayText } from './locale-format';
import { timeOf } from './time-format';

// The words for a thread wherever it shows: under its root in the room, in its pane, in the Threads view.

/** '1 reply', '3 replies'. */
export const replyCountText = (count: number): string => t('thread.replies', { count });

/** When a thread's last reply came: 'Last reply at 14:03', '… yesterday at 09:12', '… Jan 3, 2026'. */
export function lastReplyText(iso: string, now: Date = new Date()): string {
  const day = dayText(iso, now);
  if (day === t('time.today')) return t('thread.lastReplyToday', { time: timeOf(iso) });
  if (day === t('time.yesterday')) return t('thread.lastReplyYesterday', { time: timeOf(iso) });
  return t('thread.lastReplyOn', { day });
}
