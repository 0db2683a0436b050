import { Pencil, Reply, X } from 'lucide-react';
import { useT } from '../../../lib/i18n/i18n';
import type { ComposerMode } from '../hooks/use-message-actions';

/** Above the composer while it replies to or edits a message: what, and a button to stop (or Escape). */
export function ComposerModeBar({
  mode,
  onCancel,
}: {
  mode: NonNullable<ComposerMode>;
  onCancel: () => void;
}) {
  const t = useT();
  const replying = mode.kind === 'reply';
  const Icon = replying ? Reply : Pencil;
  const title = replying
    ? t('room.mode.replying', { name: mode.message.sender_name })
    : t('room.mode.editing');
  const cancel = replying ? t('room.mode.cancelReply') : t('room.mode.cancelEdit');
  return (
    <div
      role="status"
      data-testid="composer-mode"
      className="flex items-center gap-2 border-b border-slate-100 dark:border-slate-800 bg-slate-50 dark:bg-slate-950 px-3 py-2 text-sm"
    >
      <Icon aria-hidden="true" className="size-4 shrink-0 text-brand-600 dark:text-brand-300" />
      <div className="min-w-0 flex-1 border-s-2 border-brand-500 ps-2">
        <p className="text-xs font-semibold text-brand-700 dark:text-brand-200">{title}</p>
        <p translate="no" className="truncate text-slate-600 dark:text-slate-400">
          {mode.message.body}
        </p>
      </div>
      <button
        type="button"
        onClick={onCancel}
        aria-label={cancel}
        title={t('room.mode.cancelTitle', { action: cancel })}
        className="rounded-full p-1 text-slate-500 dark:text-slate-400 hover:bg-slate-200 dark:hover:bg-slate-700 hover:text-slate-800 dark:hover:text-white"
      >
        <X aria-hidden="true" className="size-4" />
      </button>
    </div>
  );
}
