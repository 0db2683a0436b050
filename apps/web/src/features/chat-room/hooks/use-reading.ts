import { useEffect, useSyncExternalStore } from 'react';
import { startReading } from '../../../lib/queries/reading-chat';
import { useDocumentVisible } from './use-document-visible';

const subscribeFocus = (onChange: () => void) => {
  window.addEventListener('focus', onChange);
  window.addEventListener('blur', onChange);
  return () => {
    window.removeEventListener('focus', onChange);
    window.removeEventListener('blur', onChange);
  };
};

/** Whether the window has the focus (a visible window behind another one has not). */
const useWindowFocused = (): boolean =>
  useSyncExternalStore(
    subscribeFocus,
    () => document.hasFocus(),
    () => true,
  );

/**
 * Whether the reader is reading this chat: the room is open, its page on screen and its window focused. Only
 * then are arriving messages reported read; and meanwhile the chat list shows no badge for it and the title's
 * count leaves it out (lib/queries/reading-chat.ts).
 */
export function useReading(chatId: string): boolean {
  const visible = useDocumentVisible();
  const focused = useWindowFocused();
  const reading = visible && focused;
  useEffect(() => (reading ? startReading(chatId) : undefined), [chatId, reading]);
  return reading;
}
