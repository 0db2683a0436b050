import { type RefObject, useLayoutEffect } from 'react';

/**
 * The box grows with its text up to its max-height, then scrolls. CSS field-sizing does it where supported;
 * elsewhere the height follows the content here.
 */
export function useAutoGrow(area: RefObject<HTMLTextAreaElement | null>, text: string) {
  useLayoutEffect(() => {
    const el = area.current;
    if (!el || CSS.supports?.('field-sizing', 'content')) return;
    el.style.height = 'auto';
    el.style.height = `${el.scrollHeight + el.offsetHeight - el.clientHeight}px`;
  }, [text]);
}
