import type { PollInput } from '@parley/protocol';
import { ChartBar, Paperclip, Smile } from 'lucide-react';
import { Suspense, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useT } from '../../../lib/i18n/i18n';
import { lazyRetry } from '../../../lib/ui/retry-import';
import { ATTACH_ACCEPT } from '../lib/attachment-files';
import { EmojiPicker } from './emoji-picker';

const PollDialog = lazyRetry(() => import('./poll-dialog'));

const ICON_BUTTON =
  'inline-flex size-10 shrink-0 items-center justify-center rounded-lg text-slate-500 transition-colors hover:bg-slate-100 hover:text-slate-800 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-100';

/** The composer's paperclip: opens the file chooser and hands over the files chosen. */
export function AttachButton({
  disabled,
  onChoose,
}: {
  disabled: boolean;
  onChoose: (files: File[]) => void;
}) {
  const t = useT();
  const fileInput = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={fileInput}
        type="file"
        accept={ATTACH_ACCEPT}
        multiple
        hidden
        aria-hidden="true"
        tabIndex={-1}
        onChange={(event) => {
          const chosen = Array.from(event.target.files ?? []);
          event.target.value = '';
          onChoose(chosen);
        }}
      />
      <button
        type="button"
        aria-label={t('room.composer.attach')}
        title={t('room.composer.attach')}
        disabled={disabled}
        onClick={() => fileInput.current?.click()}
        className={`${ICON_BUTTON} disabled:opacity-40`}
      >
        <Paperclip aria-hidden="true" className="size-5" />
      </button>
    </>
  );
}

/**
 * The composer's smiley: opens the emoji picker (loaded when first opened), which stays open for more emoji.
 * `onRefocus` gives the focus back to the box when the picker is closed with Escape.
 */
export function EmojiButton({
  onPick,
  onRefocus,
}: {
  onPick: (emoji: string) => void;
  onRefocus: () => void;
}) {
  const t = useT();
  const button = useRef<HTMLButtonElement>(null);
  const [picking, setPicking] = useState(false);
  return (
    <>
      <button
        ref={button}
        type="button"
        aria-label={t('room.composer.emoji')}
        title={t('room.composer.emoji')}
        aria-haspopup="dialog"
        aria-expanded={picking}
        onClick={() => setPicking(!picking)}
        className={ICON_BUTTON}
      >
        <Smile aria-hidden="true" className="size-5" />
      </button>
      {picking && (
        <EmojiPicker
          anchor={button}
          label={t('room.composer.emoji')}
          onPick={onPick}
          onClose={(refocus) => {
            setPicking(false);
            if (refocus) onRefocus();
          }}
        />
      )}
    </>
  );
}

/** The composer's poll button: opens 'Create poll' (loaded when first opened), which sends the poll it makes. */
export function PollButton({
  disabled,
  onCreate,
}: {
  disabled: boolean;
  /** False when the poll could not be sent: the dialog stays open. */
  onCreate: (poll: PollInput) => boolean;
}) {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        aria-label={t('room.composer.poll')}
        title={t('room.composer.poll')}
        aria-haspopup="dialog"
        disabled={disabled}
        onClick={() => setOpen(true)}
        className={`${ICON_BUTTON} disabled:opacity-40`}
      >
        <ChartBar aria-hidden="true" className="size-5" />
      </button>
      {/* Out of the composer's form: the dialog has a form of its own. */}
      {open &&
        createPortal(
          <Suspense fallback={null}>
            <PollDialog onCreate={onCreate} onClose={() => setOpen(false)} />
          </Suspense>,
          document.body,
        )}
    </>
  );
}
