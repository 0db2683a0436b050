import { dayLabel } from '@parley/protocol';
import { timeOf } from './time-format';

// The words for a thread wherever it shows: under its root in the room, in its pane, in the Threads view.

/** '1 reply', '3 replies'. */
export const replyCountText = (count: number): string => (count === 1 ? '1 reply' : `${count} replies`);

/** When a thread's last reply came: 'Last reply at 14:03', '… yesterday at 09:12', '… Jan 3, 2026'. */
export function lastReplyText(iso: string, now: Date = new Date()): string {
  const day = dayLabel(iso, now);
  if (day === 'Today') return `Last reply at ${timeOf(iso)}`;
  if (day === 'Yesterday') return `Last reply yesterday at ${timeOf(iso)}`;
  return `Last reply ${day}`;
}
