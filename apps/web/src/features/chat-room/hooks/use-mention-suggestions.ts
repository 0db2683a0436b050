import type { ChatMember } from '@parley/protocol';
import { type KeyboardEvent, useId, useMemo, useState } from 'react';
import { insertMention, type MentionCandidate, mentionQuery, suggestMembers } from '../lib/mentions';

// The composer's @ suggestions (issue 10): members matching the name typed before the caret, chosen with
// ↑/↓ and Enter or Tab, closed with Escape. The textarea keeps the focus; the list is a listbox it controls.

export function useMentionSuggestions(
  members: ChatMember[],
  meId: number,
  text: string,
  caret: number,
  apply: (next: { text: string; caret: number }) => void,
) {
  const listId = useId();
  const [active, setActive] = useState(0);
  /** The @name Escape closed the list on; typing on (or elsewhere) opens it again. */
  const [dismissed, setDismissed] = useState<string | null>(null);

  const query = mentionQuery(text, caret);
  const candidates = useMemo(
    () => (query ? suggestMembers(members, query.query, meId) : []),
    [members, meId, query?.query, query],
  );
  const open = query !== null && candidates.length > 0 && dismissed !== `${query.start}:${query.query}`;
  const current = open ? Math.min(active, candidates.length - 1) : -1;

  const pick = (candidate: MentionCandidate) => {
    if (!query) return;
    apply(insertMention(text, query, candidate.username));
    setActive(0);
  };

  /** Handles the keys the list owns; true when the event was used. */
  const onKeyDown = (event: KeyboardEvent): boolean => {
    if (!open) return false;
    const move = (by: number) => {
      event.preventDefault();
      setActive((current + by + candidates.length) % candidates.length);
    };
    if (event.key === 'ArrowDown') move(1);
    else if (event.key === 'ArrowUp') move(-1);
    else if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') {
      event.preventDefault();
      pick(candidates[current]!);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      setDismissed(`${query.start}:${query.query}`);
    } else return false;
    return true;
  };

  const optionId = (index: number) => `${listId}-${index}`;
  return {
    open,
    candidates,
    active: current,
    listId,
    optionId,
    pick,
    onKeyDown,
    /** Attributes for the textarea that owns the list. */
    inputProps: {
      'aria-autocomplete': 'list' as const,
      'aria-controls': open ? listId : undefined,
      'aria-activedescendant': open ? optionId(current) : undefined,
    },
    reset: () => setActive(0),
  };
}

export type MentionSuggestions = ReturnType<typeof useMentionSuggestions>;
