import { SEARCH_QUERY_MAX_LENGTH } from '@parley/protocol';
import { type KeyboardEvent, useEffect, useState } from 'react';
import { isNavigationKey, keepActive, moveActive } from '../lib/result-model';

/**
 * A combobox's keyboard: ↑/↓ move the active option (focus stays in the input, which names the option with
 * aria-activedescendant), Enter picks it. The active option stays while the results change, until `query`
 * does: then the first result is the active one, so typing and pressing Enter opens the best match.
 */
export function useListbox<T extends { key: string }>(
  options: readonly T[],
  onPick: (option: T) => void,
  optionId: (key: string) => string,
  listboxId: string,
  query: string,
) {
  const [chosen, setChosen] = useState<{ key: string; query: string } | null>(null);
  const activeKey = keepActive(options, chosen?.query === query ? chosen.key : null);
  const setActiveKey = (key: string | null) => setChosen(key === null ? null : { key, query });
  const index = options.findIndex((o) => o.key === activeKey);

  useEffect(() => {
    if (activeKey) document.getElementById(optionId(activeKey))?.scrollIntoView({ block: 'nearest' });
  }, [activeKey, optionId]);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (isNavigationKey(event.key)) {
      event.preventDefault();
      setActiveKey(options[moveActive(index, event.key, options.length)]?.key ?? null);
    } else if (event.key === 'Enter') {
      const option = options[index];
      event.preventDefault();
      if (option) onPick(option);
    }
  };

  /** The text input's side of the pattern: spread on the <input>. */
  const inputProps = {
    role: 'combobox',
    'aria-expanded': options.length > 0,
    'aria-controls': listboxId,
    'aria-autocomplete': 'list',
    'aria-activedescendant': activeKey ? optionId(activeKey) : undefined,
    type: 'text',
    autoComplete: 'off',
    spellCheck: false,
    maxLength: SEARCH_QUERY_MAX_LENGTH,
    onKeyDown,
  } as const;

  return { activeKey, setActiveKey, inputProps };
}
