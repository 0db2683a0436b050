import { describe, expect, it } from 'vitest';
import { testMessage, thumbsUp } from '../../../lib/messages/test-message';
import { lastEditable, reactionAdded } from './message-changes';
import { initialRoomMessages, roomReducer } from './room-messages';

const ME = 1;
const msg = testMessage;
const thumbs = thumbsUp;

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
