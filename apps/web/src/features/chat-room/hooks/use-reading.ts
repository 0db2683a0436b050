import { useEffect } from 'react';
import { startReading } from '../../../lib/queries/reading-chat';
import { usePageAttended } from '../../../lib/ui/use-page-attention';

/**
 * Whether the reader is reading this chat: the room is open, its page on screen and its window focused. Only
 * then are arriving messages reported read; and meanwhile the chat list shows no badge for it and the title's
 * count leaves it out (lib/queries/reading-chat.ts).
 */
export function useReading(chatId: string): boolean {
  const reading = usePageAttended();
  useEffect(() => (reading ? startReading(chatId) : undefined), [chatId, reading]);
  return reading;
}
