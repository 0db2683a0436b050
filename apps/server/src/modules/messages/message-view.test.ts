import { describe, expect, it } from 'vitest';
import { type Marks, tickRule } from './message-view';

// The ticks rule worked out per sender (thresholds on the id) answers what its definition says for every
// message: read once every other member who reports reads has read it, delivered once any other member's
// client got it or reported reading it.

const byDefinition = (id: number, senderId: number | null, marks: Marks[]) => {
  const others = marks.filter((m) => m.userId !== senderId);
  const reporting = others.filter((m) => m.readReceipt);
  const isRead = reporting.length > 0 && reporting.every((m) => m.lastRead >= id);
  const isDelivered =
    isRead || others.some((m) => m.lastDelivered >= id || (m.readReceipt && m.lastRead >= id));
  return { is_read: isRead, is_delivered: isDelivered };
};

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('tickRule', () => {
  it('agrees with the definition for every message, sender and set of marks', () => {
    const next = random(15);
    const int = (n: number) => Math.floor(next() * n);
    for (let round = 0; round < 300; round++) {
      const marks: Marks[] = Array.from({ length: int(6) }, (_, i) => ({
        userId: i + 1,
        lastRead: int(12),
        lastDelivered: int(12),
        readReceipt: next() < 0.7,
      }));
      const tick = tickRule(marks);
      for (let id = 1; id <= 12; id++)
        for (const sender of [null, 1, 2, 3, 9])
          expect(tick(id, sender), `round ${round}, message ${id}, sender ${sender}`).toEqual(
            byDefinition(id, sender, marks),
          );
    }
  });

  it('ticks nothing in a chat with no one else', () => {
    const tick = tickRule([{ userId: 1, lastRead: 5, lastDelivered: 5, readReceipt: true }]);
    expect(tick(3, 1)).toEqual({ is_read: false, is_delivered: false });
  });
});
