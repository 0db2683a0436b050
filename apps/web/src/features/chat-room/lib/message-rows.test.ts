import type { Message } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { testMessage } from '../../../lib/messages/test-message';
import { buildRows, messageKey, withUnreadDivider } from './message-rows';

const me = { id: 1, name: 'Ada', username: 'ada', avatar: null };
const now = new Date(2026, 2, 10, 15, 0, 0);

const at = (id: number, date: Date, patch: Partial<Message> = {}): Message =>
  testMessage(id, { body: 'x', timestamp: date.toISOString(), client_id: undefined, ...patch });

const summary = (rows: ReturnType<typeof buildRows>) =>
  rows.map((r) =>
    r.kind === 'day'
      ? `# ${r.label}`
      : r.kind === 'unread'
        ? '-- new'
        : r.pending
          ? `pending ${r.message.body}`
          : r.message.id,
  );

describe('buildRows (day grouping)', () => {
  it("puts 'Today', 'Yesterday' and a dated heading before each local day", () => {
    const rows = buildRows(
      [
        at(1, new Date(2025, 11, 31, 23, 59)),
        at(2, new Date(2026, 2, 8, 9, 0)),
        at(3, new Date(2026, 2, 9, 0, 0)),
        at(4, new Date(2026, 2, 9, 23, 59)),
        at(5, new Date(2026, 2, 10, 0, 0)),
        at(6, new Date(2026, 2, 10, 14, 0)),
      ],
      [],
      me,
      'c1',
      now,
      'en-US',
    );
    expect(summary(rows)).toEqual([
      '# Dec 31, 2025',
      1,
      '# Mar 8, 2026',
      2,
      '# Yesterday',
      3,
      4,
      '# Today',
      5,
      6,
    ]);
  });

  it('adds pending sends last as the user’s own messages, under Today', () => {
    const rows = buildRows(
      [at(1, new Date(2026, 2, 9, 12, 0))],
      [{ client_id: 'p1', body: 'hello', timestamp: now.toISOString(), status: 'sending' }],
      me,
      'c1',
      now,
    );
    expect(summary(rows)).toEqual(['# Yesterday', 1, '# Today', 'pending hello']);
    const last = rows[rows.length - 1]!;
    expect(last.kind === 'message' && last.message).toMatchObject({
      sender: 1,
      is_sent: false,
      client_id: 'p1',
    });
    expect(last.key).toBe('c-p1');
  });

  it('keeps a row key across the pending → confirmed swap and keys are unique', () => {
    expect(messageKey({ id: 9, client_id: 'p1' })).toBe('c-p1');
    expect(messageKey({ id: 9, client_id: null })).toBe('m-9');
    const rows = buildRows(
      [at(1, new Date(2026, 2, 10, 9)), at(2, new Date(2026, 2, 9, 9)), at(3, new Date(2026, 2, 10, 10))],
      [],
      me,
      'c1',
      now,
    );
    const keys = rows.map((r) => r.key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('has no rows for no messages', () => {
    expect(buildRows([], [], me, 'c1', now)).toEqual([]);
  });
});

describe('withUnreadDivider', () => {
  const day = new Date(2026, 2, 10, 9);
  const rows = buildRows([at(1, day), at(2, day), at(3, day)], [], me, 'c1', now);

  it("puts 'New messages' right before the first unread message", () => {
    expect(summary(withUnreadDivider(rows, 2))).toEqual(['# Today', 1, '-- new', 2, 3]);
  });

  it('leaves the rows as they are when nothing is unread or that message is not in them', () => {
    expect(withUnreadDivider(rows, null)).toBe(rows);
    expect(withUnreadDivider(rows, 42)).toBe(rows);
  });

  it('draws the quote of a pending reply', () => {
    const quote = { id: 1, sender_name: 'Grace', body: 'x', is_deleted: false };
    const pending = buildRows(
      [],
      [{ client_id: 'p', body: 'y', timestamp: day.toISOString(), status: 'sending', reply_to: quote }],
      me,
      'c1',
      now,
    );
    const row = pending[1]!;
    expect(row.kind === 'message' && row.message.reply_to).toEqual(quote);
  });
});
