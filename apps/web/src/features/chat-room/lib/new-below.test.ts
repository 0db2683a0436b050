import type { Message } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import type { MessageRow } from './message-rows';
import { newBelow, seenThrough } from './new-below';

const ME = 1;
const row = (id: number, sender: number | null = 2, patch: Partial<Message> = {}): MessageRow => ({
  kind: 'message',
  key: `m-${id}`,
  message: { id, sender, kind: 'user', ...patch } as Message,
  pending: null,
});
const day: MessageRow = { kind: 'day', key: 'd', label: 'Today' };
const none = new Set<number>();

describe("'Jump to latest' counts", () => {
  // 45 messages of history, the reader scrolled up to the 10th; one message arrives.
  const history = [day, ...Array.from({ length: 45 }, (_, i) => row(i + 1))];

  it('only the messages that arrived since the reader last saw the bottom, not the history below the view', () => {
    const rows = [...history, row(46)];
    expect(newBelow(rows, 10, 45, ME, none)).toBe(1);
    expect(newBelow([...rows, row(47), row(48)], 10, 45, ME, none)).toBe(3);
  });

  it("leaves out one's own messages, pending sends and people the reader blocked", () => {
    const rows = [...history, row(46, ME), row(0, ME), row(47, 9), row(48, 3), row(49, null)];
    expect(newBelow(rows, 10, 45, ME, new Set([9]))).toBe(2);
  });

  it('counts unread messages the room opened on, below the view, until they are scrolled past', () => {
    const rows = [...history];
    // Opened at the divider before message 40, with 40 and 41 in view.
    expect(newBelow(rows, seenIndex(rows, 41), seenThrough(rows, seenIndex(rows, 41)), ME, none)).toBe(4);
  });

  it('what the reader has seen is the newest message in view or above it', () => {
    const rows = [...history, day, row(46, ME), row(0, ME)];
    expect(seenThrough(rows, 10)).toBe(10);
    expect(seenThrough(rows, rows.length - 1)).toBe(46);
    expect(seenThrough([day], 0)).toBe(0);
  });
});

const seenIndex = (rows: MessageRow[], id: number) =>
  rows.findIndex((r) => r.kind === 'message' && r.message.id === id);
