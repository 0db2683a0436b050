import { Upload } from 'lucide-react';
import { useT } from '../../../lib/i18n/i18n';

/** Drawn over the room while files are dragged over it (use-file-drop.ts). */
export function DropOverlay({ rect }: { rect: DOMRect }) {
  const t = useT();
  return (
    <div
      aria-hidden="true"
      data-testid="drop-overlay"
      style={{ top: rect.top, left: rect.left, width: rect.width, height: rect.height }}
      className="pointer-events-none fixed z-40 flex items-center justify-center rounded-lg border-2 border-dashed border-brand-500 bg-brand-50/85 dark:bg-slate-900/85"
    >
      <p className="flex items-center gap-2 text-base font-semibold text-brand-800 dark:text-brand-200">
        <Upload aria-hidden="true" className="size-5" />
        {t('room.files.drop')}
      </p>
    </div>
  );
}
