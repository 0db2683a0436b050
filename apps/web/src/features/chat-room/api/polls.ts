import type { Poll } from '@parley/protocol';
import { api } from '../../../lib/http/api-client';

// A poll's vote and its closing. Each answers the poll as it now stands for this reader; the room hears
// poll_updated too (each member's with their own choices).

const pollPath = (chatId: string, messageId: number) =>
  `/chats/${encodeURIComponent(chatId)}/messages/${messageId}/`;

/** PUT …/votes/ {options}: the reader's choices (none takes the vote back). */
export const votePoll = (chatId: string, messageId: number, options: number[]): Promise<Poll> =>
  api.put<Poll>(`${pollPath(chatId, messageId)}votes/`, { options });

/** POST …/close/: its author closes the poll for good. */
export const closePoll = (chatId: string, messageId: number): Promise<Poll> =>
  api.post<Poll>(`${pollPath(chatId, messageId)}close/`);
