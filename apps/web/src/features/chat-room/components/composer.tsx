import { type ChatMember, MESSAGE_MAX_LENGTH, type Message, type ReplyQuote } from '@parley/protocol';
import { Paperclip, SendHorizontal, Smile, TriangleAlert, Upload } from 'lucide-react';
import {
  type ClipboardEvent,
  type FormEvent,
  type KeyboardEvent,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { cn } from '../../../lib/cn';
import { toast } from '../../../lib/toast';
import { useMentionSuggestions } from '../hooks/use-mention-suggestions';
import { type ComposerMode, quoteOf } from '../hooks/use-message-actions';
import { useShortcodeSuggestions } from '../hooks/use-shortcode-suggestions';
import { ATTACH_ACCEPT } from '../lib/attachment-files';
import { readDraft, writeDraft } from '../lib/drafts';
import { insertAtCaret } from '../lib/emoji-shortcodes';
import { messageLength, tooLongText } from '../lib/message-length';
import { filesOf, imageThumbnail, type StagedFile, stageFiles } from '../lib/staged-files';
import { ComposerModeBar } from './composer-mode-bar';
import { EmojiPicker } from './emoji-picker';
import { MentionList, ShortcodeList } from './mention-list';
import { StagedFiles } from './pending-uploads';

export interface ComposerProps {
  chatId: string;
  meId: number;
  members: ChatMember[];
  /** Returns false when the message could not go out; the text is then kept. */
  onSend: (text: string, replyTo?: ReplyQuote) => boolean;
  onInput: (text: string) => void;
  /** Files that passed the type and size checks; they go out as a message of their own, after the text. */
  onAttach: (files: File[]) => void;
  /** Replying to or editing a message, or null. */
  mode: ComposerMode;
  onModeChange: (mode: ComposerMode) => void;
  /** Saves an edit; false keeps the text to try again. */
  onSaveEdit: (message: Message, text: string) => Promise<boolean>;
  /** This person's last message that can be edited (Up arrow in an empty composer). */
  lastEditable: () => Message | null;
}

const storage = () => window.localStorage;

/**
 * Attach button, 'Type your message...' and a send button that is disabled while there is nothing to send. Also
 * the reply and edit modes (Escape leaves them; Up in an empty composer edits one's last message), @ suggestions
 * and the chat's draft, kept per account until it is sent. Issue 12: several lines (Enter sends, Shift+Enter
 * breaks the line; the box grows to about eight lines, then scrolls), files chosen, pasted or dropped onto the
 * room wait above it with thumbnails until sent, the count shows near the limit (past it, nothing is sent), an
 * emoji picker (loaded when first opened) and :shortcode suggestions.
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
  onSaveEdit,
  lastEditable,
}: ComposerProps) {
  const [text, setText] = useState(() => readDraft(storage(), meId, chatId));
  const [caret, setCaret] = useState(0);
  const [saving, setSaving] = useState(false);
  const [staged, setStaged] = useState<StagedFile[]>([]);
  const [refused, setRefused] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const pendingCaret = useRef<number | null>(null);
  const countId = useId();
  const editing = mode?.kind === 'edit' ? mode.message : null;
  const blank = !text.trim();
  const length = messageLength(text);
  // Files wait only for a new message: an edit changes the text alone.
  const files = editing ? [] : staged;
  const empty = blank && files.length === 0;
  if (refused && length.over === 0) setRefused(false);

  /** Files from the button, a paste or a drop, under the attach button's rules (a refusal is a toast). */
  const addFiles = (added: File[]) => {
    if (added.length === 0 || editing) return;
    const result = stageFiles(staged, added, imageThumbnail);
    for (const problem of result.problems) toast.error(problem);
    setStaged(result.staged);
  };
  const removeFile = (key: string) => {
    const gone = staged.find((s) => s.key === key);
    if (gone?.url) URL.revokeObjectURL(gone.url);
    setStaged(staged.filter((s) => s.key !== key));
    area.current?.focus();
  };
  // Thumbnails are freed when the room closes.
  const stagedRef = useRef(staged);
  stagedRef.current = staged;
  useEffect(
    () => () => {
      for (const s of stagedRef.current) if (s.url) URL.revokeObjectURL(s.url);
    },
    [],
  );

  /** New text; while not editing it is also the chat's draft. */
  const change = (next: string, nextCaret = next.length) => {
    setText(next);
    setCaret(nextCaret);
    if (!editing) writeDraft(storage(), meId, chatId, next);
  };

  // Entering an edit puts the message's text in; leaving it brings the draft back.
  const editingId = editing?.id ?? null;
  const editingBody = useRef('');
  editingBody.current = editing?.body ?? '';
  useEffect(() => {
    const next = editingId === null ? readDraft(storage(), meId, chatId) : editingBody.current;
    setText(next);
    setCaret(next.length);
    pendingCaret.current = next.length;
  }, [editingId, meId, chatId]);
  // A reply or an edit starts with the focus in the composer.
  useEffect(() => {
    if (mode) area.current?.focus();
  }, [mode]);
  useLayoutEffect(() => {
    if (pendingCaret.current === null || !area.current) return;
    area.current.setSelectionRange(pendingCaret.current, pendingCaret.current);
    pendingCaret.current = null;
  });

  // The box grows with its text up to its max-height, then scrolls. CSS field-sizing does it where supported;
  // elsewhere the height follows the content here.
  useLayoutEffect(() => {
    const el = area.current;
    if (!el || CSS.supports?.('field-sizing', 'content')) return;
    el.style.height = 'auto';
    el.style.height = `${el.scrollHeight + el.offsetHeight - el.clientHeight}px`;
  }, [text]);

  // Files dragged over the room (the element the composer sits in) can be dropped anywhere on it. Dropped
  // anywhere else while the room is open (or during an edit), they are ignored rather than opened by the
  // browser in place of Parley.
  const [dropRect, setDropRect] = useState<DOMRect | null>(null);
  const addFilesRef = useRef(addFiles);
  addFilesRef.current = addFiles;
  const canDropRef = useRef(editing === null);
  canDropRef.current = editing === null;
  useEffect(() => {
    const room = root.current?.parentElement;
    if (!room) return;
    let depth = 0;
    const carriesFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') ?? false;
    const onEnter = (event: DragEvent) => {
      if (!carriesFiles(event) || !canDropRef.current) return;
      depth++;
      setDropRect(room.getBoundingClientRect());
    };
    const onOver = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      if (event.dataTransfer)
        event.dataTransfer.dropEffect =
          canDropRef.current && room.contains(event.target as Node) ? 'copy' : 'none';
    };
    const onLeave = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDropRect(null);
    };
    const onDrop = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      depth = 0;
      setDropRect(null);
      if (!canDropRef.current || !room.contains(event.target as Node)) return;
      addFilesRef.current(filesOf(event.dataTransfer));
      area.current?.focus();
    };
    room.addEventListener('dragenter', onEnter);
    room.addEventListener('dragleave', onLeave);
    window.addEventListener('dragover', onOver);
    window.addEventListener('drop', onDrop);
    return () => {
      room.removeEventListener('dragenter', onEnter);
      room.removeEventListener('dragleave', onLeave);
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('drop', onDrop);
    };
  }, []);

  /**
   * A pasted image (or any file) is attached; pasted text goes in as usual. A clipboard with both (cells copied
   * from a spreadsheet also carry a picture of them) pastes its text.
   */
  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const pasted = filesOf(event.clipboardData);
    if (pasted.length === 0 || editing || event.clipboardData.getData('text/plain')) return;
    event.preventDefault();
    addFiles(pasted);
  };

  const applyText = (next: { text: string; caret: number }) => {
    change(next.text, next.caret);
    pendingCaret.current = next.caret;
    if (!editing) onInput(next.text);
  };
  const suggestions = useMentionSuggestions(members, meId, text, caret, applyText);
  const shortcodes = useShortcodeSuggestions(text, caret, applyText);
  // At most one list is open: '@name' and ':name' cannot both end at the caret.
  const listProps = shortcodes.open ? shortcodes.inputProps : suggestions.inputProps;

  const emojiButton = useRef<HTMLButtonElement>(null);
  const [picking, setPicking] = useState(false);
  /** The picker's emoji goes in where the caret was; the picker stays open for more. */
  const pickEmoji = (emoji: string) => applyText(insertAtCaret(text, caret, emoji));

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
    // The text first (with the reply), then the files as a message of their own once they are up.
    if (!blank && !onSend(text, replyTo)) return;
    if (files.length > 0) {
      onAttach(files.map((s) => s.file));
      for (const s of files) if (s.url) URL.revokeObjectURL(s.url);
      setStaged([]);
    }
    change('');
    if (replyTo) onModeChange(null);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.nativeEvent.isComposing || suggestions.onKeyDown(event) || shortcodes.onKeyDown(event)) return;
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
      <MentionList suggestions={suggestions} />
      <ShortcodeList suggestions={shortcodes} />
      {mode && <ComposerModeBar mode={mode} onCancel={() => onModeChange(null)} />}
      <StagedFiles files={files} onRemove={removeFile} />
      {refused && (
        <p
          role="alert"
          className="flex items-start gap-2 border-b border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
        >
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {tooLongText(length.over)}
        </p>
      )}
      <form onSubmit={(event) => void submit(event)} className="flex items-end gap-2 px-2 py-2 sm:px-3">
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
            addFiles(chosen);
          }}
        />
        <button
          type="button"
          aria-label="Attach file"
          title="Attach file"
          disabled={editing !== null}
          onClick={() => fileInput.current?.click()}
          className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg text-slate-500 transition-colors hover:bg-slate-100 hover:text-slate-800 disabled:opacity-40 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-100"
        >
          <Paperclip aria-hidden="true" className="size-5" />
        </button>
        <button
          ref={emojiButton}
          type="button"
          aria-label="Insert emoji"
          title="Insert emoji"
          aria-haspopup="dialog"
          aria-expanded={picking}
          onClick={() => setPicking(!picking)}
          className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg text-slate-500 transition-colors hover:bg-slate-100 hover:text-slate-800 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-100"
        >
          <Smile aria-hidden="true" className="size-5" />
        </button>
        {picking && (
          <EmojiPicker
            anchor={emojiButton}
            label="Insert emoji"
            onPick={pickEmoji}
            onClose={(refocus) => {
              setPicking(false);
              if (refocus) area.current?.focus();
            }}
          />
        )}
        <div className="flex min-w-0 flex-1 flex-col">
          <textarea
            ref={area}
            aria-label="Message"
            aria-describedby={length.show ? countId : undefined}
            aria-invalid={length.over > 0 || undefined}
            placeholder="Type your message..."
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
              <span className="sr-only">Characters: </span>
              {length.count} / {MESSAGE_MAX_LENGTH}
            </p>
          )}
        </div>
        <button
          type="submit"
          aria-label={editing ? 'Save edit' : 'Send message'}
          title={editing ? 'Save edit' : 'Send message'}
          disabled={empty || saving}
          className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg bg-brand-600 text-white shadow-sm transition-colors hover:bg-brand-700 disabled:cursor-not-allowed disabled:bg-brand-600/40"
        >
          <SendHorizontal aria-hidden="true" className="size-5" />
        </button>
      </form>
      {dropRect && (
        <div
          aria-hidden="true"
          data-testid="drop-overlay"
          style={{ top: dropRect.top, left: dropRect.left, width: dropRect.width, height: dropRect.height }}
          className="pointer-events-none fixed z-40 flex items-center justify-center rounded-lg border-2 border-dashed border-brand-500 bg-brand-50/85 dark:bg-slate-900/85"
        >
          <p className="flex items-center gap-2 text-base font-semibold text-brand-800 dark:text-brand-200">
            <Upload aria-hidden="true" className="size-5" />
            Drop files to attach
          </p>
        </div>
      )}
    </div>
  );
}
