import {
  type ChatMember,
  MESSAGE_MAX_LENGTH,
  type Message,
  type PollInput,
  type ReplyQuote,
} from '@parley/protocol';
import { SendHorizontal, TriangleAlert } from 'lucide-react';
import {
  type ClipboardEvent,
  type FormEvent,
  type KeyboardEvent,
  Suspense,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { ErrorBanner } from '../../../components/ui/alert';
import { useT } from '../../../lib/i18n/i18n';
import { cn } from '../../../lib/ui/cn';
import { lazyRetry } from '../../../lib/ui/retry-import';
import { useAutoGrow } from '../hooks/use-auto-grow';
import { type TextAtCaret, useDraft } from '../hooks/use-draft';
import { useFileDrop } from '../hooks/use-file-drop';
import { useMentionSuggestions } from '../hooks/use-mention-suggestions';
import { type ComposerMode, quoteOf } from '../hooks/use-message-actions';
import { useShortcodeSuggestions } from '../hooks/use-shortcode-suggestions';
import { type CommandPlace, useSlashCommands } from '../hooks/use-slash-commands';
import { useStagedFiles } from '../hooks/use-staged-files';
import { loadRecorder, useVoiceRecorder } from '../hooks/use-voice-recorder';
import { COMPOSER_BOX } from '../lib/composer-slot';
import { insertAtCaret } from '../lib/emoji-shortcodes';
import { messageLength, tooLongText } from '../lib/message-length';
import { sendKindOf } from '../lib/slash-commands';
import { filesOf } from '../lib/staged-files';
import { CommandList, EphemeralNotes } from './command-list';
import { AttachButton, EmojiButton, PollButton } from './composer-buttons';
import { ComposerModeBar } from './composer-mode-bar';
import { DropOverlay } from './drop-overlay';
import { MentionList, ShortcodeList } from './mention-list';
import { StagedFiles } from './pending-uploads';
import { VoiceButton } from './voice-button';
import type { Recording } from './voice-recorder';

/** What the composer shows while a voice message records, loaded with the recorder. */
const RecorderStrip = lazyRetry(loadRecorder);

export interface ComposerProps {
  chatId: string;
  meId: number;
  members: ChatMember[];
  /** Returns false when the message could not go out; the text is then kept. */
  onSend: (text: string, replyTo?: ReplyQuote) => boolean;
  onInput: (text: string) => void;
  /** Files that passed the type and size checks, sent as one message with the text as their caption. */
  onAttach: (files: File[], text: string, replyTo?: ReplyQuote) => void;
  /** Replying to or editing a message, or null. */
  mode: ComposerMode;
  onModeChange: (mode: ComposerMode) => void;
  /** Sends a recorded voice message (the microphone shows only with it, while nothing is typed). */
  onVoice?: (recording: Recording, replyTo?: ReplyQuote) => void;
  /** Saves an edit; false keeps the text to try again. */
  onSaveEdit: (message: Message, text: string) => Promise<boolean>;
  /** This person's last message that can be edited (Up arrow in an empty composer). */
  lastEditable: () => Message | null;
  /** Sends a poll (the poll button shows only with it); false when it could not go out. */
  onSendPoll?: (poll: PollInput) => boolean;
  /** Where '/command' runs (suggested after '/'); without it a text starting with '/' is a message. */
  commands?: CommandPlace;
}

/**
 * Attach button, 'Type your message...' and a send button that is disabled while there is nothing to send. Also
 * the reply and edit modes (Escape leaves them; Up in an empty composer edits one's last message), @ suggestions
 * and the chat's draft, kept per account until it is sent (use-draft.ts). Several lines (Enter sends,
 * Shift+Enter breaks the line; the box grows to about eight lines, then scrolls), files chosen, pasted or dropped
 * onto the room wait above it with thumbnails until sent (use-staged-files.ts, use-file-drop.ts), the count shows
 * near the limit (past it, nothing is sent), an emoji picker (loaded when first opened), :shortcode
 * suggestions and, in a room, 'Create poll' (loaded when first opened).
 */
export function Composer({
  chatId,
  meId,
  members,
  onSend,
  onInput,
  onAttach,
  mode,
  onModeChange,
  onVoice,
  onSaveEdit,
  lastEditable,
  onSendPoll,
  commands,
}: ComposerProps) {
  const [saving, setSaving] = useState(false);
  const [refused, setRefused] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const t = useT();
  const countId = useId();
  const editing = mode?.kind === 'edit' ? mode.message : null;
  const staging = useStagedFiles(editing !== null);
  const { text, caret, setCaret, change, place } = useDraft(meId, chatId, editing, area);
  const blank = !text.trim();
  const length = messageLength(text);
  const files = staging.files;
  const empty = blank && files.length === 0;
  if (refused && length.over === 0) setRefused(false);
  // A voice message answers the message being replied to, as text would.
  const recorder = useVoiceRecorder((recording) => {
    const replyTo = mode?.kind === 'reply' ? quoteOf(mode.message) : undefined;
    onVoice?.(recording, replyTo);
    if (replyTo) onModeChange(null);
  });
  const rec = recorder.state;
  const recording = rec.phase !== 'idle';
  // Beside the send button (disabled while there is nothing to send, SPEC §2), in its place on a phone's width;
  // recording takes its place everywhere.
  const showMic = onVoice !== undefined && empty && !editing;

  // A reply or an edit starts with the focus in the composer.
  useEffect(() => {
    if (mode) area.current?.focus();
  }, [mode]);
  useAutoGrow(area, text);
  const dropRect = useFileDrop(root, editing === null, (dropped) => {
    staging.add(dropped);
    area.current?.focus();
  });

  /**
   * A pasted image (or any file) is attached; pasted text goes in as usual. A clipboard with both (cells copied
   * from a spreadsheet also carry a picture of them) pastes its text.
   */
  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const pasted = filesOf(event.clipboardData);
    if (pasted.length === 0 || editing || event.clipboardData.getData('text/plain')) return;
    event.preventDefault();
    staging.add(pasted);
  };

  const applyText = (next: TextAtCaret) => {
    place(next);
    if (!editing) onInput(next.text);
  };
  const suggestions = useMentionSuggestions(members, meId, text, caret, applyText);
  const shortcodes = useShortcodeSuggestions(text, caret, applyText);
  const slash = useSlashCommands(editing ? undefined : commands, text, caret, applyText);
  // At most one list is open: '/name', '@name' and ':name' cannot both end at the caret.
  const listProps = slash.suggestions.open
    ? slash.suggestions.inputProps
    : shortcodes.open
      ? shortcodes.inputProps
      : suggestions.inputProps;

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (empty || saving) return;
    if (length.over > 0) {
      setRefused(true);
      return;
    }
    if (editing) {
      setSaving(true);
      const saved = await onSaveEdit(editing, text);
      setSaving(false);
      if (saved) area.current?.focus();
      return;
    }
    const replyTo = mode?.kind === 'reply' ? quoteOf(mode.message) : undefined;
    const send = sendKindOf(text);
    if (send.kind === 'command' && commands && files.length === 0) {
      setSaving(true);
      const ran = await slash.run(send.text);
      setSaving(false);
      if (!ran) return;
      change('');
      if (replyTo) onModeChange(null);
      return;
    }
    // Files and the text typed with them are one message, the text its caption, as in every messenger.
    if (files.length > 0) {
      onAttach(
        files.map((s) => s.file),
        text,
        replyTo,
      );
      staging.clear();
    } else if (!onSend(commands ? send.text : text, replyTo)) return;
    change('');
    if (replyTo) onModeChange(null);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (
      event.nativeEvent.isComposing ||
      slash.suggestions.onKeyDown(event) ||
      suggestions.onKeyDown(event) ||
      shortcodes.onKeyDown(event)
    )
      return;
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void submit();
    } else if (event.key === 'Escape' && mode) {
      event.preventDefault();
      onModeChange(null);
    } else if (event.key === 'ArrowUp' && text === '' && !mode) {
      const last = lastEditable();
      if (last) {
        event.preventDefault();
        onModeChange({ kind: 'edit', message: last });
      }
    }
  };

  return (
    <div
      ref={root}
      data-testid="composer"
      className="relative border-t border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-950"
    >
      <CommandList suggestions={slash.suggestions} />
      <MentionList suggestions={suggestions} />
      <ShortcodeList suggestions={shortcodes} />
      {mode && <ComposerModeBar mode={mode} onCancel={() => onModeChange(null)} />}
      <StagedFiles
        files={files}
        onRemove={(key) => {
          staging.remove(key);
          area.current?.focus();
        }}
      />
      <EphemeralNotes notes={slash.notes} onDismiss={slash.dismiss} />
      {slash.error && <ErrorBanner className="m-2 mb-0">{slash.error}</ErrorBanner>}
      {slash.running && (
        <p role="status" className="px-3 pt-1 text-xs text-slate-600 dark:text-slate-300">
          {t('room.composer.running', { command: slash.running })}
        </p>
      )}
      {refused && (
        <p
          role="alert"
          className="flex items-start gap-2 border-b border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
        >
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {tooLongText(length.over)}
        </p>
      )}
      {recorder.problem && (
        <p
          role="alert"
          className="flex items-start gap-2 border-b border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
        >
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {recorder.problem}
        </p>
      )}
      <p role="status" className="sr-only" data-testid="voice-status">
        {recorder.announcement}
      </p>
      <form onSubmit={(event) => void submit(event)} className="flex items-end gap-2 px-2 py-2 sm:px-3">
        {rec.phase !== 'idle' && (
          <Suspense fallback={<div className="min-h-10 flex-1" />}>
            <RecorderStrip
              startedAt={rec.phase === 'recording' ? rec.startedAt : performance.now()}
              holding={rec.holding}
              onCancel={recorder.cancel}
            />
          </Suspense>
        )}
        {/* Hidden, not unmounted, while recording: the draft and the caret wait as they were. */}
        <div className={recording ? 'hidden' : 'contents'}>
          <AttachButton disabled={editing !== null} onChoose={staging.add} />
          {onSendPoll && <PollButton disabled={editing !== null} onCreate={onSendPoll} />}
          <EmojiButton
            onPick={(emoji) => applyText(insertAtCaret(text, caret, emoji))}
            onRefocus={() => area.current?.focus()}
          />
          <div className="flex min-w-0 flex-1 flex-col">
            <textarea
              ref={area}
              // What is typed takes the direction of its first strong letter, as a sent body does.
              dir="auto"
              {...{ [COMPOSER_BOX]: '' }}
              aria-label={t('room.composer.label')}
              aria-describedby={length.show ? countId : undefined}
              aria-invalid={length.over > 0 || undefined}
              placeholder={t('room.composer.placeholder')}
              rows={1}
              enterKeyHint={editing ? 'done' : 'send'}
              value={text}
              {...listProps}
              onChange={(event) => {
                const { value, selectionStart } = event.target;
                const completed = shortcodes.complete(value, selectionStart);
                if (completed) return applyText(completed);
                change(value, selectionStart);
                if (!editing) onInput(value);
              }}
              onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
              onKeyDown={onKeyDown}
              onPaste={onPaste}
              className={cn(
                'field-sizing-content block max-h-44 min-h-10 w-full resize-none overflow-y-auto rounded-xl border bg-white px-3 py-2 text-sm leading-5 text-slate-900 placeholder:text-slate-500 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand-600 dark:bg-slate-900 dark:text-slate-100 dark:placeholder:text-slate-400',
                length.over > 0 ? 'border-red-500' : 'border-slate-300 dark:border-slate-700',
              )}
            />
            {length.show && (
              <p
                id={countId}
                data-testid="message-count"
                className={cn(
                  'mt-0.5 self-end px-1 text-xs tabular-nums',
                  length.over > 0
                    ? 'font-semibold text-red-700 dark:text-red-300'
                    : 'text-slate-600 dark:text-slate-300',
                )}
              >
                <span className="sr-only">{t('room.composer.characters')} </span>
                {length.count} / {MESSAGE_MAX_LENGTH}
              </p>
            )}
          </div>
        </div>
        {showMic && <VoiceButton recorder={recorder} />}
        {!recording && (
          <button
            type="submit"
            aria-label={editing ? t('room.composer.saveEdit') : t('room.composer.send')}
            title={editing ? t('room.composer.saveEdit') : t('room.composer.send')}
            disabled={empty || saving}
            className={cn(
              'inline-flex size-10 shrink-0 items-center justify-center rounded-lg bg-brand-600 text-white shadow-sm transition-colors hover:bg-brand-700 disabled:cursor-not-allowed disabled:bg-brand-600/40',
              showMic && 'max-sm:hidden',
            )}
          >
            <SendHorizontal aria-hidden="true" className="size-5 rtl:-scale-x-100" />
          </button>
        )}
      </form>
      {dropRect && <DropOverlay rect={dropRect} />}
    </div>
  );
}
