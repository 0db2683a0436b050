import { describe, expect, it } from 'vitest';
import { MemoryRoomPresence } from './room-presence';

describe('MemoryRoomPresence.absentAmong', () => {
  it('answers those not in the room, in the order asked, until their last connection leaves', async () => {
    const rooms = new MemoryRoomPresence();
    expect(await rooms.absentAmong('c1', [1, 2, 3])).toEqual([1, 2, 3]);
    await rooms.join('c1', 2);
    await rooms.join('c1', 2);
    await rooms.join('c2', 3);
    expect(await rooms.absentAmong('c1', [3, 2, 1])).toEqual([3, 1]);
    await rooms.leave('c1', 2);
    expect(await rooms.absentAmong('c1', [1, 2])).toEqual([1]);
    await rooms.leave('c1', 2);
    expect(await rooms.absentAmong('c1', [1, 2])).toEqual([1, 2]);
    expect(await rooms.absentAmong('c2', [])).toEqual([]);
  });
});
