import { type Poll, pollFromInput } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import {
  applyDeleted,
  applyPoll,
  applyReactions,
  applyThread,
  applyUpdated,
  messageFor,
  newerThread,
  reactionsFor,
  withOwnVotes,
} from './message-changes';
import { testMessage, thumbsUp } from './test-message';

const ME = 1;
const msg = testMessage;
const thumbs = thumbsUp;

describe('reactions me', () => {
  it('is computed from user_ids, whatever the frame said', () => {
    expect(reactionsFor([thumbs([2, ME]), { ...thumbs([2]), emoji: '🎉', me: true }], ME)).toEqual([
      thumbs([2, ME], true),
      { ...thumbs([2]), emoji: '🎉', me: false },
    ]);
  });

  it('keeps the same objects when nothing changes', () => {
    const r = [thumbs([ME], true)];
    expect(reactionsFor(r, ME)[0]).toBe(r[0]);
    const m = msg(1);
    expect(messageFor(m, ME)).toBe(m);
  });
});

describe('applyUpdated', () => {
  it('replaces the text and edited time by id, keeping ticks that moved on', () => {
    const list = [msg(1), msg(2, { sender: ME, is_read: true, is_delivered: true })];
    const out = applyUpdated(
      list,
      msg(2, { sender: ME, body: 'fixed', edited_at: '2026-01-01T12:05:00.000Z', reactions: [thumbs([ME])] }),
      ME,
    );
    expect(out[0]).toBe(list[0]);
    expect(out[1]).toMatchObject({ body: 'fixed', edited_at: '2026-01-01T12:05:00.000Z', is_read: true });
    expect(out[1]!.reactions[0]!.me).toBe(true);
  });

  it('follows the edit in the quotes of replies to it, cut as the server cuts them', () => {
    const quote = { id: 1, sender_name: 'Grace', body: 'old', is_deleted: false };
    const list = [msg(1, { body: 'old' }), msg(2, { reply_to: quote })];
    const out = applyUpdated(list, msg(1, { body: 'x'.repeat(150), edited_at: 'e' }), ME);
    expect(out[1]!.reply_to).toEqual({ ...quote, body: 'x'.repeat(100) });
  });

  it('shows a link preview that arrived after the message, and its removal', () => {
    const preview = {
      url: 'https://a.example/',
      title: 'A',
      description: null,
      site_name: 'a.example',
      image: null,
    };
    const list = [msg(1, { body: 'https://a.example/' })];
    const shown = applyUpdated(list, msg(1, { body: 'https://a.example/', link_preview: preview }), ME);
    expect(shown[0]!.link_preview).toEqual(preview);
    expect(applyUpdated(shown, msg(1, { body: 'https://a.example/', link_preview: preview }), ME)).toBe(
      shown,
    );
    const removed = applyUpdated(shown, msg(1, { body: 'https://a.example/', link_preview: null }), ME);
    expect(removed[0]!.link_preview).toBeNull();
  });

  it('ignores a message that is not loaded, and a copy that changes nothing', () => {
    const list = [msg(1)];
    expect(applyUpdated(list, msg(9, { body: 'x' }), ME)).toBe(list);
    expect(applyUpdated(list, msg(1), ME)).toBe(list);
  });
});

describe('applyDeleted', () => {
  it('empties the message in its place and marks quotes of it deleted', () => {
    const quote = { id: 1, sender_name: 'Grace', body: 'm1', is_deleted: false };
    const list = [
      msg(1, { reactions: [thumbs([2])], mentions: [ME], files: [{ id: 5, type: 'image', file: '/f' }] }),
      msg(2, { reply_to: quote }),
      msg(3),
    ];
    const out = applyDeleted(list, 1);
    expect(out.map((m) => m.id)).toEqual([1, 2, 3]);
    expect(out[0]).toMatchObject({ is_deleted: true, body: '', files: [], reactions: [], mentions: [] });
    expect(out[1]!.reply_to).toEqual({ ...quote, body: '', is_deleted: true });
    expect(out[2]).toBe(list[2]);
    expect(applyDeleted(out, 1)).toBe(out);
    expect(applyDeleted(list, 42)).toBe(list);
  });
});

describe('applyReactions', () => {
  it('sets the reactions of one message with me computed for this reader', () => {
    const list = [msg(1), msg(2)];
    const out = applyReactions(list, 2, [thumbs([2, ME])], ME);
    expect(out[1]!.reactions).toEqual([thumbs([2, ME], true)]);
    expect(out[0]).toBe(list[0]);
    expect(applyReactions(out, 2, [thumbs([2, ME])], ME)).toBe(out);
    expect(applyReactions(out, 2, [], ME)[1]!.reactions).toEqual([]);
  });
});

describe('thread summaries', () => {
  const thread = (reply_count: number, last_reply_at = `2026-01-01T12:0${reply_count}:00.000Z`) => ({
    reply_count,
    last_reply_at,
    participant_ids: [2, ME],
  });

  it('applyThread sets the summary of its root alone, and keeps the list when it is the same', () => {
    const list = [msg(1), msg(2)];
    const out = applyThread(list, 1, thread(2));
    expect(out[0]!.thread).toEqual(thread(2));
    expect(out[1]).toBe(list[1]);
    expect(applyThread(out, 1, thread(2))).toBe(out);
    expect(applyThread(list, 9, thread(1))).toBe(list);
  });

  it('an edit of a root keeps the newer of the two summaries', () => {
    const list = [msg(1, { thread: thread(3) })];
    expect(
      applyUpdated(list, msg(1, { body: 'fixed', edited_at: 'e', thread: thread(2) }), ME)[0],
    ).toMatchObject({ body: 'fixed', thread: thread(3) });
    expect(applyUpdated(list, msg(1, { body: 'fixed', edited_at: 'e' }), ME)[0]!.thread).toEqual(thread(3));
    expect(newerThread(thread(1), thread(1, '2026-01-02T00:00:00.000Z'))).toEqual(
      thread(1, '2026-01-02T00:00:00.000Z'),
    );
    expect(newerThread(null, thread(1))).toEqual(thread(1));
  });
});

describe('polls', () => {
  const asked = pollFromInput({ question: 'Lunch?', options: ['a', 'b'], multiple: false, anonymous: false });
  const voted = (my_votes: number[], votes: number[]): Poll => ({
    ...asked,
    my_votes,
    voter_count: votes.reduce((n, v) => n + v, 0),
    options: asked.options.map((o, i) => ({ ...o, votes: votes[i] ?? 0 })),
  });

  it('takes a poll as it now stands, and keeps the list when nothing changed', () => {
    const list = [msg(1, { poll: asked }), msg(2)];
    const next = applyPoll(list, 1, voted([0], [1, 0]));
    expect(next[0]?.poll).toEqual(voted([0], [1, 0]));
    expect(next[1]).toBe(list[1]);
    expect(applyPoll(next, 1, voted([0], [1, 0]))).toBe(next);
    expect(applyPoll(next, 2, voted([1], [0, 1]))).toBe(next);
  });

  it("keeps the reader's own choices when a room frame's copy (nobody's) comes", () => {
    const shown = msg(1, { poll: voted([1], [0, 1]) });
    const frame = msg(1, { poll: voted([], [1, 1]), body: 'edited' });
    expect(withOwnVotes(shown, frame).poll).toEqual(voted([1], [1, 1]));
    expect(applyUpdated([shown], frame, ME)[0]?.poll?.my_votes).toEqual([1]);
    expect(withOwnVotes(undefined, frame)).toBe(frame);
  });

  it('drops the poll of a message deleted for everyone', () => {
    expect(applyDeleted([msg(1, { poll: asked })], 1)[0]?.poll).toBeNull();
  });
});
