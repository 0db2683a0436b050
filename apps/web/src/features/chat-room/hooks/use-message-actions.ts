import {
  type ChatDetail,
  isAdminRole,
  type Message,
  memberNameOf,
  REPLY_QUOTE_LENGTH,
  type ReplyQuote,
} from '@parley/protocol';
import { useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { serverErrorOr } from '../../../lib/http/api-error';
import { t } from '../../../lib/i18n/i18n';
import { threadPath } from '../../../lib/text/chat-path';
import { toast } from '../../../lib/ui/toast';
import { deleteMessage, editMessage, setReaction } from '../api/message-actions';
import { closePoll, votePoll } from '../api/polls';
import type { MessageActions } from '../components/message-actions-context';
import type { RoomMessageList } from './use-room-messages';
import '../lib/room-server-texts';

// The room's answers to the message menu: what the composer is doing (a reply or an edit), which
// message waits for its delete confirmation or shows its earlier versions, and where the list should scroll.
// Outcomes are applied at once from the HTTP answer; the room frames that follow change nothing further.

export type ComposerMode = { kind: 'reply'; message: Message } | { kind: 'edit'; message: Message } | null;

/** Where the list scrolls and which message it highlights; `seq` repeats a jump to the same message. */
export interface ScrollTarget {
  id: number;
  seq: number;
}

export const quoteOf = (m: Message): ReplyQuote => ({
  id: m.id,
  sender_name: m.sender_name,
  sender_id: m.sender,
  body: m.body.slice(0, REPLY_QUOTE_LENGTH),
  is_deleted: m.is_deleted,
});

export function useMessageActions(
  detail: ChatDetail,
  meId: number,
  list: Pick<RoomMessageList, 'dispatch' | 'loadAround'>,
) {
  const chatId = detail.chat_id;
  const isPrivate = detail.is_private;
  const { dispatch, loadAround } = list;
  const navigate = useNavigate();
  const [mode, setMode] = useState<ComposerMode>(null);
  const [deleting, setDeleting] = useState<Message | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  const [editsOf, setEditsOf] = useState<Message | null>(null);
  const [forwarding, setForwarding] = useState<Message | null>(null);
  const [target, setTarget] = useState<ScrollTarget | null>(null);
  const seq = useRef(0);

  const members = detail.members;
  const canDeleteAny = !detail.is_private && members.some((m) => m.id === meId && isAdminRole(m.role));
  const member = detail.is_member !== false;

  const actions = useMemo<MessageActions>(() => {
    const names = new Map<number, string>();
    const usernames = new Map<string, string>();
    const usernameById = new Map<number, string>();
    const avatars = new Map<number, string | null>();
    for (const m of members) {
      if (m.id === null) continue;
      names.set(m.id, memberNameOf(m));
      avatars.set(m.id, m.avatar);
      usernames.set(m.username.toLowerCase(), m.username);
      usernameById.set(m.id, m.username);
    }
    return {
      meId,
      canDeleteAny,
      names,
      usernames,
      usernameById,
      avatars,
      reply: (message) => setMode({ kind: 'reply', message }),
      edit: (message) => setMode({ kind: 'edit', message }),
      remove: (message) => setDeleting(message),
      showEdits: (message) => setEditsOf(message),
      forward: (message) => setForwarding(message),
      copy: (message) => {
        navigator.clipboard?.writeText(message.body).then(
          () => toast.success(t('browse.room.copied')),
          () => toast.error(t('browse.room.copyFailed')),
        );
      },
      toggleReaction: (message, emoji) => {
        const on = !message.reactions.some((r) => r.emoji === emoji && r.me);
        setReaction(chatId, message.id, emoji, on).then(
          (answer) =>
            dispatch({ type: 'reactions', message_id: answer.message_id, reactions: answer.reactions, meId }),
          (error) => toast.error(serverErrorOr(error, t('browse.room.reactionFailed'))),
        );
      },
      jumpTo: (messageId) => {
        void loadAround(messageId).then((found) => {
          if (found) setTarget({ id: messageId, seq: ++seq.current });
          else toast.error(t('browse.room.originalGone'));
        });
      },
      vote: (message, options) => {
        votePoll(chatId, message.id, options).then(
          (poll) => dispatch({ type: 'poll', message_id: message.id, poll }),
          (error) => toast.error(serverErrorOr(error, t('browse.room.voteFailed'))),
        );
      },
      closePoll: (message) => {
        closePoll(chatId, message.id).then(
          (poll) => dispatch({ type: 'poll', message_id: message.id, poll }),
          (error) => toast.error(serverErrorOr(error, t('browse.room.closePollFailed'))),
        );
      },
      openThread: (rootId) => navigate(threadPath({ chat_id: chatId, is_private: isPrivate }, rootId)),
      marks: member ? { chatId, canPin: isPrivate || canDeleteAny } : undefined,
    };
  }, [members, meId, canDeleteAny, member, chatId, isPrivate, dispatch, loadAround, navigate]);

  /** Saves the composer's edit; false keeps the composer in edit mode with the text. */
  const saveEdit = async (message: Message, text: string): Promise<boolean> => {
    const body = text.trim();
    if (body === message.body) {
      setMode(null);
      return true;
    }
    try {
      const edited = await editMessage(chatId, message.id, body);
      dispatch({ type: 'updated', message: edited, meId });
      setMode(null);
      return true;
    } catch (error) {
      toast.error(serverErrorOr(error, t('browse.room.editFailed')));
      return false;
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    setDeleteBusy(true);
    try {
      await deleteMessage(chatId, deleting.id);
      dispatch({ type: 'deleted', message_id: deleting.id });
      setMode((m) => (m?.message.id === deleting.id ? null : m));
      setDeleting(null);
    } catch (error) {
      toast.error(serverErrorOr(error, t('browse.room.deleteFailed')));
    } finally {
      setDeleteBusy(false);
    }
  };

  return {
    actions,
    mode,
    setMode,
    saveEdit,
    deleting,
    deleteBusy,
    confirmDelete,
    cancelDelete: () => setDeleting(null),
    editsOf,
    closeEdits: () => setEditsOf(null),
    forwarding,
    closeForward: () => setForwarding(null),
    target,
    scrollTo: (id: number) => setTarget({ id, seq: ++seq.current }),
  };
}
