import type { Reaction } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import {
  applyDeleted,
  applyReactions,
  applyUpdated,
  lastEditable,
  messageFor,
  reactionAdded,
  reactionsFor,
} from './message-changes';
import { initialRoomMessages, roomReducer } from './room-messages';
import { testMessage } from './test-message';

const ME = 1;
const msg = testMessage;
const thumbs = (user_ids: number[], me = false): Reaction => ({
  emoji: '👍',
  count: user_ids.length,
  me,
  user_ids,
});

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

describe('the room reducer with the three frames', () => {
  it('merges updates, deletions and reactions by id and ignores unknown ids', () => {
    let s = roomReducer(initialRoomMessages, {
      type: 'page',
      messages: [msg(1), msg(2)],
      position: 'latest',
    });
    s = roomReducer(s, { type: 'updated', message: msg(1, { body: 'new', edited_at: 'e' }), meId: ME });
    s = roomReducer(s, { type: 'reactions', message_id: 2, reactions: [thumbs([ME])], meId: ME });
    s = roomReducer(s, { type: 'deleted', message_id: 1 });
    expect(s.messages[0]).toMatchObject({ body: '', is_deleted: true, edited_at: 'e' });
    expect(s.messages[1]!.reactions[0]!.me).toBe(true);
    expect(roomReducer(s, { type: 'deleted', message_id: 99 })).toBe(s);
  });

  it('a refetched page brings edits, deletions and reactions missed while away', () => {
    let s = roomReducer(initialRoomMessages, {
      type: 'page',
      messages: [msg(1), msg(2)],
      position: 'latest',
    });
    s = roomReducer(s, {
      type: 'page',
      messages: [msg(1, { body: 'edited', edited_at: 'e' }), msg(2, { is_deleted: true, body: '' })],
      position: 'newer',
    });
    expect(s.messages.map((m) => [m.body, m.is_deleted])).toEqual([
      ['edited', false],
      ['', true],
    ]);
  });

  it('an around page joins the list and lets older history load again', () => {
    let s = roomReducer(initialRoomMessages, {
      type: 'page',
      messages: [msg(10), msg(11)],
      position: 'latest',
    });
    expect(s.hasOlder).toBe(false);
    s = roomReducer(s, {
      type: 'page',
      messages: [msg(4), msg(5), msg(6), msg(7), msg(8), msg(9)],
      position: 'around',
    });
    expect(s.messages.map((m) => m.id)).toEqual([4, 5, 6, 7, 8, 9, 10, 11]);
    expect(s.hasOlder).toBe(true);
  });
});

describe('reactionAdded', () => {
  it('names who added which emoji, and only someone else', () => {
    expect(reactionAdded([thumbs([ME])], [thumbs([ME, 3])], ME)).toEqual({ user_id: 3, emoji: '👍' });
    expect(reactionAdded([], [thumbs([2]), { ...thumbs([2]), emoji: '🎉' }], ME)).toEqual({
      user_id: 2,
      emoji: '👍',
    });
    expect(reactionAdded([thumbs([2])], [thumbs([2]), { ...thumbs([2]), emoji: '🎉' }], ME)).toEqual({
      user_id: 2,
      emoji: '🎉',
    });
  });

  it("is null for one's own reaction and for one taken back", () => {
    expect(reactionAdded([thumbs([2])], [thumbs([2, ME])], ME)).toBeNull();
    expect(reactionAdded([thumbs([2, 3])], [thumbs([2])], ME)).toBeNull();
    expect(reactionAdded([thumbs([2])], [], ME)).toBeNull();
  });
});

describe('lastEditable', () => {
  it('is the newest own message with text that is not deleted', () => {
    const list = [
      msg(1, { sender: ME }),
      msg(2, { sender: ME, body: '', files: [{ id: 1, type: 'pdf', file: '/f' }] }),
      msg(3, { sender: ME, is_deleted: true, body: '' }),
      msg(4),
    ];
    expect(lastEditable(list, ME)?.id).toBe(1);
    expect(lastEditable([msg(4)], ME)).toBeNull();
  });
});
