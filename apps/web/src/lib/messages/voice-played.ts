import type { ChatFile, Message } from '@parley/protocol';
import { api } from '../http/api-client';

// A voice message's played mark: told to the server when the person a private chat's voice message was sent to
// plays it (the room and search both play them), and drawn when the room hears `voice_played`.

/** Messages whose mark was asked for in this tab: once is enough (the server keeps the first). */
const asked = new Set<number>();

/** Whether playing this file, in this message, is what marks it played: someone else's voice message, unplayed. */
export const marksPlayed = (
  file: ChatFile,
  message: Pick<Message, 'sender'>,
  meId: number,
  privateChat: boolean,
) => privateChat && file.kind === 'voice' && file.played === false && message.sender !== meId;

/** PUT …/messages/{id}/played/; a failure is dropped (the mark is a courtesy, asked again on a later play). */
export function markVoicePlayed(chatId: string, messageId: number): void {
  if (asked.has(messageId) || messageId <= 0) return;
  asked.add(messageId);
  api
    .put(`/chats/${encodeURIComponent(chatId)}/messages/${messageId}/played/`)
    .catch(() => asked.delete(messageId));
}

/** `voice_played`: that file of that message now shows played (the same list when nothing changes). */
export function applyVoicePlayed(list: Message[], messageId: number, fileId: number): Message[] {
  const at = list.findIndex((m) => m.id === messageId);
  const message = list[at];
  if (!message?.files.some((f) => f.id === fileId && f.played === false)) return list;
  const next = [...list];
  next[at] = { ...message, files: message.files.map((f) => (f.id === fileId ? { ...f, played: true } : f)) };
  return next;
}
