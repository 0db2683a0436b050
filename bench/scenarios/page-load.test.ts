import { describe, expect, it } from 'vitest';
import { samePageShape } from './page-load';

describe('samePageShape', () => {
  it('passes the same entries in the same order with the same fields, by the key asked', () => {
    const ours = [
      { chat_id: 'a', member_count: 9 },
      { chat_id: 'b', member_count: 3 },
    ];
    expect(
      samePageShape(
        ours,
        ours.map((c) => ({ ...c })),
        'chat_id',
      ),
    ).toBeNull();
    expect(samePageShape(ours, [...ours].reverse(), 'chat_id')).toBe('chat_ids differ: a,b… vs b,a…');
    expect(samePageShape(ours, [ours[0], { chat_id: 'b' }], 'chat_id')).toBe(
      "entry 1's fields differ: chat_id,member_count vs chat_id",
    );
    expect(samePageShape([{ id: 1, thread: null }], [{ id: 1 }])).toBe(
      "entry 0's fields differ: id,thread vs id",
    );
    expect(samePageShape(ours, { results: ours })).toBe('not a list');
  });
});
