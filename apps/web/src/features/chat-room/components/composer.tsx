import { type ChatMember, MESSAGE_MAX_LENGTH, type Message, type ReplyQuote } from '@parley/protocol';
import { Paperclip, SendHorizontal } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { toast } from 'react-toastify';
import { useMentionSuggestions } from '../hooks/use-mention-suggestions';
import { type ComposerMode, quoteOf } from '../hooks/use-message-actions';
import { ATTACH_ACCEPT, attachmentProblems } from '../lib/attachment-files';
import { readDraft, writeDraft } from '../lib/drafts';
import { ComposerModeBar } from './composer-mode-bar';
import { MentionList } from './mention-list';

export interface ComposerProps {
  chatId: string;
  meId: number;
  members: ChatMember[];
  /** Returns false when the message could not go out; the text is then kept. */
  onSend: (text: string, replyTo?: ReplyQuote) => boolean;
  onInput: (text: string) => void;
  /** Chosen files that passed the type and size checks; they go out as a message of their own. */
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
 * Attach button, 'Type your message...' and a send button that is disabled while the text is blank. Also the
 * reply and edit modes (Escape leaves them; Up in an empty composer edits one's last message), @ suggestions
 * and the chat's draft, kept per account until it is sent.
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
  const fileInput = useRef<HTMLInputElement>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  const pendingCaret = useRef<number | null>(null);
  const editing = mode?.kind === 'edit' ? mode.message : null;
  const blank = !text.trim();

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

  const suggestions = useMentionSuggestions(members, meId, text, caret, (next) => {
    change(next.text, next.caret);
    pendingCaret.current = next.caret;
  });

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (blank || saving) return;
    if (editing) {
      setSaving(true);
      const saved = await onSaveEdit(editing, text);
      setSaving(false);
      if (saved) area.current?.focus();
      return;
    }
    const replyTo = mode?.kind === 'reply' ? quoteOf(mode.message) : undefined;
    if (onSend(text, replyTo)) {
      change('');
      if (replyTo) onModeChange(null);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.nativeEvent.isComposing || suggestions.onKeyDown(event)) return;
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
    <div className="relative border-t border-slate-200 bg-white">
      <MentionList suggestions={suggestions} />
      {mode && <ComposerModeBar mode={mode} onCancel={() => onModeChange(null)} />}
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
            const files = Array.from(event.target.files ?? []);
            event.target.value = '';
            if (files.length === 0) return;
            // One refused file refuses the choice: nothing is sent, and each reason is a toast.
            const problems = attachmentProblems(files);
            if (problems.length > 0) for (const problem of problems) toast.error(problem);
            else onAttach(files);
          }}
        />
        <button
          type="button"
          aria-label="Attach file"
          title="Attach file"
          disabled={editing !== null}
          onClick={() => fileInput.current?.click()}
          className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg text-slate-500 transition-colors hover:bg-slate-100 hover:text-slate-800 disabled:opacity-40"
        >
          <Paperclip aria-hidden="true" className="size-5" />
        </button>
        <textarea
          ref={area}
          aria-label="Message"
          placeholder="Type your message..."
          rows={1}
          maxLength={MESSAGE_MAX_LENGTH}
          enterKeyHint={editing ? 'done' : 'send'}
          value={text}
          {...suggestions.inputProps}
          onChange={(event) => {
            change(event.target.value, event.target.selectionStart);
            if (!editing) onInput(event.target.value);
          }}
          onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
          className="field-sizing-content block max-h-32 min-h-10 min-w-0 flex-1 resize-none rounded-xl border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-400 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand-600"
        />
        <button
          type="submit"
          aria-label={editing ? 'Save edit' : 'Send message'}
          title={editing ? 'Save edit' : 'Send message'}
          disabled={blank || saving}
          className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg bg-brand-600 text-white shadow-sm transition-colors hover:bg-brand-700 disabled:cursor-not-allowed disabled:bg-brand-600/40"
        >
          <SendHorizontal aria-hidden="true" className="size-5" />
        </button>
      </form>
    </div>
  );
}
