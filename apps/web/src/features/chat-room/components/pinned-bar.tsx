import { Pin } from 'lucide-react';
import { useState } from 'react';
import { useT } from '../../../lib/i18n/i18n';
import { excerptIsWritten, messageExcerpt } from '../../../lib/text/message-excerpt';
import { usePins } from '../api/pins';

/**
 * The bar at the top of a room with pinned messages: it shows the newest pin's text; a click jumps to the pin
 * shown and shows the next older one, so clicks cycle through them all. Kept live by pins_updated (the room
 * reads its pins again), which shows the newest pin again. A room without pins draws nothing.
 */
export function PinnedBar({ chatId, onJump }: { chatId: string; onJump: (messageId: number) => void }) {
  const t = useT();
  const pins = usePins(chatId).data ?? [];
  const ids = pins.map((m) => m.id).join(',');
  const [cycle, setCycle] = useState({ ids, at: 0 });
  // New pins (or fewer): start again at the newest.
  const at = cycle.ids === ids ? Math.min(cycle.at, pins.length - 1) : 0;
  const shown = pins[at];
  if (!shown) return null;
  const label = pins.length > 1 ? t('room.pins.nth', { at: at + 1, count: pins.length }) : t('room.pins.one');
  return (
    <section
      aria-label={t('room.pins.label')}
      className="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
    >
      <button
        type="button"
        data-testid="pinned-bar"
        onClick={() => {
          onJump(shown.id);
          setCycle({ ids, at: (at + 1) % pins.length });
        }}
        className="flex w-full min-w-0 items-center gap-3 px-4 py-2 text-start outline-offset-[-2px] transition-colors hover:bg-slate-50 dark:hover:bg-slate-800/60"
      >
        <Pin aria-hidden="true" className="size-4 shrink-0 text-brand-600 dark:text-brand-300" />
        <span className="min-w-0 flex-1">
          <span className="block text-xs font-semibold text-brand-700 dark:text-brand-300">{label}</span>
          <span
            className="block truncate text-sm text-slate-700 dark:text-slate-300"
            data-testid="pinned-text"
            translate={excerptIsWritten(shown) ? 'no' : undefined}
          >
            {messageExcerpt(shown, t)}
          </span>
        </span>
      </button>
    </section>
  );
}
