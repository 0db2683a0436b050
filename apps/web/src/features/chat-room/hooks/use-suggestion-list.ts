import { type KeyboardEvent, useId, useState } from 'react';

// A list of suggestions for what is being typed before the composer's caret (the @ members, the
// :shortcode emoji): chosen with ↑/↓ and Enter or Tab, closed with Escape until the typed word
// changes. The textarea keeps the focus; the list is a listbox it controls (aria-activedescendant).

export interface TypedQuery {
  /** Where the typed word (with its '@' or ':') starts. */
  start: number;
  query: string;
}

export function useSuggestionList<T>(query: TypedQuery | null, candidates: T[], choose: (item: T) => void) {
  const listId = useId();
  const [active, setActive] = useState(0);
  /** The word Escape closed the list on; typing on (or elsewhere) opens it again. */
  const [dismissed, setDismissed] = useState<string | null>(null);

  const open = query !== null && candidates.length > 0 && dismissed !== `${query.start}:${query.query}`;
  const current = open ? Math.min(active, candidates.length - 1) : -1;

  const pick = (item: T) => {
    choose(item);
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
  };
}
