import type { Message } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { dueAcks, type ReportedAcks } from './room-acks';

const ME = 1;
const base = { sender: 2, is_read: false, is_delivered: false, kind: 'user' } as Message;
const at = (id: number, patch: Partial<Message> = {}): Message => ({ ...base, id, ...patch });
const fresh = (): ReportedAcks => ({ read: new Set(), delivered: new Set() });

describe('dueAcks', () => {
  const list = [at(1), at(2, { sender: ME }), at(3, { is_delivered: true }), at(4, { is_read: true })];

  it("on screen reads others' unread messages and counts them as delivered", () => {
    const reported = fresh();
    expect(dueAcks(list, ME, true, reported)).toEqual({ read: [1, 3], delivered: [] });
    expect([...reported.read]).toEqual([1, 3]);
    expect([...reported.delivered]).toEqual([1, 3]);
  });

  it('hidden only delivers what nobody acknowledged yet', () => {
    const reported = fresh();
    expect(dueAcks(list, ME, false, reported)).toEqual({ read: [], delivered: [1] });
    expect(reported.read.size).toBe(0);
    expect([...reported.delivered]).toEqual([1]);
  });

  it('reports nothing twice on one connection, and reads on return what was only delivered', () => {
    const reported = fresh();
    dueAcks(list, ME, false, reported);
    expect(dueAcks(list, ME, false, reported)).toEqual({ read: [], delivered: [] });
    expect(dueAcks(list, ME, true, reported)).toEqual({ read: [1, 3], delivered: [] });
    expect(dueAcks(list, ME, true, reported)).toEqual({ read: [], delivered: [] });
  });

  it("skips others' system lines when only delivering", () => {
    expect(dueAcks([at(5, { kind: 'system' })], ME, false, fresh()).delivered).toEqual([]);
  });
});
