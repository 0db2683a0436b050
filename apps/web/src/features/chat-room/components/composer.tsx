import { MESSAGE_MAX_LENGTH } from '@parley/protocol';
import { Paperclip, SendHorizontal } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useRef, useState } from 'react';
import { toast } from 'react-toastify';
import { ATTACH_ACCEPT, attachmentProblems } from '../lib/attachment-files';

export interface ComposerProps {
  /** Returns false when the message could not go out; the text is then kept. */
  onSend: (text: string) => boolean;
  onInput: (text: string) => void;
  /** Chosen files that passed the type and size checks; they go out as a message of their own. */
  onAttach: (files: File[]) => void;
}

/** Attach button, 'Type your message...' and a send button that is disabled while the text is blank. */
export function Composer({ onSend, onInput, onAttach }: ComposerProps) {
  const [text, setText] = useState('');
  const fileInput = useRef<HTMLInputElement>(null);
  const blank = !text.trim();

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (blank) return;
    if (onSend(text)) setText('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  return (
    <form
      onSubmit={submit}
      className="flex items-end gap-2 border-t border-slate-200 bg-white px-2 py-2 sm:px-3"
    >
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
        onClick={() => fileInput.current?.click()}
        className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg text-slate-500 transition-colors hover:bg-slate-100 hover:text-slate-800"
      >
        <Paperclip aria-hidden="true" className="size-5" />
      </button>
      <textarea
        aria-label="Message"
        placeholder="Type your message..."
        rows={1}
        maxLength={MESSAGE_MAX_LENGTH}
        enterKeyHint="send"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          onInput(event.target.value);
        }}
        onKeyDown={onKeyDown}
        className="field-sizing-content block max-h-32 min-h-10 min-w-0 flex-1 resize-none rounded-xl border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-400 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand-600"
      />
      <button
        type="submit"
        aria-label="Send message"
        title="Send message"
        disabled={blank}
        className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg bg-brand-600 text-white shadow-sm transition-colors hover:bg-brand-700 disabled:cursor-not-allowed disabled:bg-brand-600/40"
      >
        <SendHorizontal aria-hidden="true" className="size-5" />
      </button>
    </form>
  );
}
