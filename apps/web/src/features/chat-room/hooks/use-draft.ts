import type { Message } from '@parley/protocol';
import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { readDraft, writeDraft } from '../lib/drafts';

const storage = () => window.localStorage;

/** Text with the caret where it should go. */
export interface TextAtCaret {
  text: string;
  caret: number;
}

/**
 * The composer's text and caret. While no message is edited the text is the chat's draft, kept per account until
 * it is sent (lib/drafts.ts); entering an edit puts the message's text in, and leaving it brings the draft back.
 */
export function useDraft(
  meId: number,
  chatId: string,
  editing: Message | null,
  area: RefObject<HTMLTextAreaElement | null>,
) {
  const [text, setText] = useState(() => readDraft(storage(), meId, chatId));
  const [caret, setCaret] = useState(0);
  /** Where the caret goes once the next text is drawn. */
  const pendingCaret = useRef<number | null>(null);

  /** New text; while not editing it is also the chat's draft. */
  const change = (next: string, nextCaret = next.length) => {
    setText(next);
    setCaret(nextCaret);
    if (!editing) writeDraft(storage(), meId, chatId, next);
  };
  /** New text, with the caret put in the box where it says (a suggestion or an emoji went in). */
  const place = (next: TextAtCaret) => {
    change(next.text, next.caret);
    pendingCaret.current = next.caret;
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
  useLayoutEffect(() => {
    if (pendingCaret.current === null || !area.current) return;
    area.current.setSelectionRange(pendingCaret.current, pendingCaret.current);
    pendingCaret.current = null;
  });

  return { text, caret, setCaret, change, place };
}
