import type { Message } from '@parley/protocol';
import { Check, CheckCheck, CircleAlert, Clock } from 'lucide-react';
import { type MessageId, useT } from '../../../lib/i18n/i18n';
import { cn } from '../../../lib/ui/cn';

/**
 * Ticks on one's own messages (SPEC §4): the error icon, a clock while pending, one tick when sent, two when
 * delivered, two blue ones when read. Each has an accessible name.
 */
const TICK_TEXT = {
  'Failed to send': 'room.tick.failed',
  Sending: 'room.tick.sending',
  Read: 'room.tick.read',
  Delivered: 'room.tick.delivered',
  Sent: 'room.tick.sent',
} as const satisfies Record<string, MessageId>;

export function MessageTicks({ message, pending }: { message: Message; pending: boolean }) {
  const t = useT();
  // The state in English for data-tick (what tests and styles read); the name in the reader's language.
  let label: keyof typeof TICK_TEXT;
  let Icon = Check;
  let tone = 'text-white/70';
  if (message.is_error) {
    label = 'Failed to send';
    Icon = CircleAlert;
    tone = 'text-red-200';
  } else if (pending) {
    label = 'Sending';
    Icon = Clock;
  } else if (message.is_read) {
    label = 'Read';
    Icon = CheckCheck;
    tone = 'text-sky-300';
  } else if (message.is_delivered) {
    label = 'Delivered';
    Icon = CheckCheck;
  } else {
    label = 'Sent';
  }
  return (
    <span
      role="img"
      aria-label={t(TICK_TEXT[label])}
      title={t(TICK_TEXT[label])}
      className={cn('inline-flex', tone)}
      data-tick={label}
    >
      <Icon aria-hidden="true" className="size-3.5" strokeWidth={2.5} />
    </span>
  );
}
