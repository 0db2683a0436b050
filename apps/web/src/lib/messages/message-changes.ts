import {
  type LinkPreview,
  type Message,
  type Poll,
  REPLY_QUOTE_LENGTH,
  type Reaction,
  type ThreadSummary,
} from '@parley/protocol';

// Edits, deletions and reactions applied to a list of messages (the room's, a thread's), as pure functions of the
// list. Each returns the same array when nothing changed, so the reducers and the memoized rows can skip work.

/**
 * Room frames carry `me: false` for everyone (one frame goes to every member), so each client finds itself in
 * `user_ids`. HTTP answers are computed per reader already; recomputing them gives the same.
 */
export const reactionsFor = (reactions: Reaction[], meId: number): Reaction[] =>
  reactions.map((r) => {
    const me = r.user_ids.includes(meId);
    return r.me === me ? r : { ...r, me };
  });

/** A message as this reader sees it: its reactions' `me` set from `user_ids`. */
export const messageFor = (message: Message, meId: number): Message =>
  message.reactions.length === 0 ? message : { ...message, reactions: reactionsFor(message.reactions, meId) };

const sameReactions = (a: Reaction[], b: Reaction[]) =>
  a.length === b.length &&
  a.every(
    (r, i) =>
      r.emoji === b[i]!.emoji &&
      r.count === b[i]!.count &&
      r.me === b[i]!.me &&
      r.user_ids.length === b[i]!.user_ids.length &&
      r.user_ids.every((id, k) => id === b[i]!.user_ids[k]),
  );

/** A root's thread as the newer of two copies tells it: the one with more replies (a frame may lag a page). */
export function newerThread(
  a: ThreadSummary | null | undefined,
  b: ThreadSummary | null | undefined,
): ThreadSummary | null | undefined {
  if (!a || !b) return a ?? b;
  return b.reply_count > a.reply_count ||
    (b.reply_count === a.reply_count && b.last_reply_at > a.last_reply_at)
    ? b
    : a;
}

const sameThread = (a: ThreadSummary | null | undefined, b: ThreadSummary | null | undefined) =>
  a === b ||
  (!!a &&
    !!b &&
    a.reply_count === b.reply_count &&
    a.last_reply_at === b.last_reply_at &&
    a.participant_ids.length === b.participant_ids.length);

/** A preview is fetched once per link: the same address and picture are the same preview. */
const samePreview = (a: LinkPreview | null | undefined, b: LinkPreview | null | undefined) =>
  (a ?? null) === (b ?? null) || (!!a && !!b && a.url === b.url && a.image?.url === b.image?.url);

/** The same counts, voters, state and own choices. */
export const samePoll = (a: Poll | null | undefined, b: Poll | null | undefined): boolean =>
  (a ?? null) === (b ?? null) ||
  (!!a &&
    !!b &&
    a.closed === b.closed &&
    a.voter_count === b.voter_count &&
    a.my_votes.join() === b.my_votes.join() &&
    a.options.length === b.options.length &&
    a.options.every(
      (o, i) => o.votes === b.options[i]!.votes && o.voters?.join() === b.options[i]!.voters?.join(),
    ));

/**
 * A room frame's copy of a poll message is nobody's in particular (`my_votes` empty): the reader's own choices
 * are kept from the copy shown (HTTP answers and poll_updated frames are the reader's own).
 */
export function withOwnVotes(shown: Message | undefined, incoming: Message): Message {
  if (!shown?.poll || !incoming.poll || incoming.poll.my_votes === shown.poll.my_votes) return incoming;
  return { ...incoming, poll: { ...incoming.poll, my_votes: shown.poll.my_votes } };
}

/** Whether what the screen draws of a message (apart from its ticks) differs between two copies. */
export const sameContent = (a: Message, b: Message) =>
  a.body === b.body &&
  a.edited_at === b.edited_at &&
  a.is_deleted === b.is_deleted &&
  a.files.length === b.files.length &&
  (a.reply_to?.is_deleted ?? null) === (b.reply_to?.is_deleted ?? null) &&
  (a.reply_to?.body ?? null) === (b.reply_to?.body ?? null) &&
  sameReactions(a.reactions, b.reactions) &&
  sameThread(a.thread, b.thread) &&
  samePreview(a.link_preview, b.link_preview) &&
  samePoll(a.poll, b.poll);

function replaceWhere(list: Message[], patch: (m: Message) => Message): Message[] {
  let changed = false;
  const out = list.map((m) => {
    const next = patch(m);
    if (next !== m) changed = true;
    return next;
  });
  return changed ? out : list;
}

/**
 * `message_updated`: the new text (and edited time) for a message already in the list, and in the quotes of
 * replies to it; a message not loaded is ignored.
 */
export function applyUpdated(list: Message[], message: Message, meId: number): Message[] {
  const incoming = messageFor(message, meId);
  const quoted = incoming.body.slice(0, REPLY_QUOTE_LENGTH);
  return replaceWhere(list, (m) => {
    if (m.reply_to?.id === incoming.id && m.reply_to.body !== quoted)
      return { ...m, reply_to: { ...m.reply_to, body: quoted } };
    if (m.id !== incoming.id) return m;
    // The ticks only move forward; the frame's copy may be older than the last read report, or than the
    // last reply of its thread.
    const next = {
      ...withOwnVotes(m, incoming),
      is_sent: m.is_sent || incoming.is_sent,
      is_delivered: m.is_delivered || incoming.is_delivered,
      is_read: m.is_read || incoming.is_read,
      thread: newerThread(m.thread, incoming.thread),
    };
    return sameContent(m, next) && m.is_read === next.is_read && m.is_delivered === next.is_delivered
      ? m
      : next;
  });
}

/** `message_deleted`: the message keeps its place, emptied; quotes of it in replies say it was deleted. */
export function applyDeleted(list: Message[], messageId: number): Message[] {
  return replaceWhere(list, (m) => {
    if (m.id === messageId) {
      return m.is_deleted
        ? m
        : {
            ...m,
            is_deleted: true,
            body: '',
            files: [],
            reactions: [],
            mentions: [],
            reply_to: null,
            poll: null,
          };
    }
    if (m.reply_to?.id === messageId && !m.reply_to.is_deleted)
      return { ...m, reply_to: { ...m.reply_to, body: '', is_deleted: true } };
    return m;
  });
}

/** `reactions_updated`: the message's reactions as they now stand. */
export function applyReactions(
  list: Message[],
  messageId: number,
  reactions: Reaction[],
  meId: number,
): Message[] {
  const mine = reactionsFor(reactions, meId);
  return replaceWhere(list, (m) =>
    m.id !== messageId || sameReactions(m.reactions, mine) ? m : { ...m, reactions: mine },
  );
}

/** `poll_updated`, or a vote's answer: the poll as it now stands for this reader. */
export function applyPoll(list: Message[], messageId: number, poll: Poll): Message[] {
  return replaceWhere(list, (m) =>
    m.id !== messageId || !m.poll || m.is_deleted || samePoll(m.poll, poll) ? m : { ...m, poll },
  );
}

/** `thread_updated`: the thread under a root as it now stands (its reply count, last reply, participants). */
export function applyThread(list: Message[], rootId: number, thread: ThreadSummary): Message[] {
  return replaceWhere(list, (m) => (m.id !== rootId || sameThread(m.thread, thread) ? m : { ...m, thread }));
}
