import type { Message } from '@parley/protocol';
import { createContext, useContext } from 'react';

// What a message row needs from the room to act on a message, handed down without passing through the
// memoized list: the value is built once per room (its functions read the latest state through refs).

/** What the menu's Pin and Save need: the room's chat, and whether the reader may pin in it. */
export interface MessageMarks {
  chatId: string;
  /** Anyone in a private chat; a group's owner and admins. */
  canPin: boolean;
}

export interface MessageActions {
  meId: number;
  /** Group admins may delete anyone's message. */
  canDeleteAny: boolean;
  /** Member display names by user id, for who reacted. */
  names: ReadonlyMap<number, string>;
  /** Members' usernames by their lower-cased form, for the mentions in bodies. */
  usernames: ReadonlyMap<string, string>;
  /** Usernames by user id, for the mentions in bodies. */
  usernameById: ReadonlyMap<number, string>;
  /** Member avatars by user id, for a thread's participants. */
  avatars: ReadonlyMap<number, string | null>;
  reply: (message: Message) => void;
  edit: (message: Message) => void;
  remove: (message: Message) => void;
  toggleReaction: (message: Message, emoji: string) => void;
  copy: (message: Message) => void;
  showEdits: (message: Message) => void;
  /** Opens the chat picker that sends a copy of the message to other chats. */
  forward: (message: Message) => void;
  jumpTo: (messageId: number) => void;
  /** Opens the thread under a root (absent where a thread is already open: its pane). */
  openThread?: (rootId: number) => void;
  /** Pin and Save (absent for someone previewing a public group: they keep nothing of it). */
  marks?: MessageMarks;
  /** Sets the reader's choices in a poll (none takes the vote back). */
  vote: (message: Message, options: number[]) => void;
  /** Closes the reader's own poll. */
  closePoll: (message: Message) => void;
}

export const MessageActionsContext = createContext<MessageActions | null>(null);

export function useMessageActionsContext(): MessageActions | null {
  return useContext(MessageActionsContext);
}
