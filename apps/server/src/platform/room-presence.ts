// Who is in which chat room right now (for in_chat_count and in_chat_users_update, and whom a new message must
// notify: those absent from its room). In-process by default;
// the scale-out work adds a Redis implementation behind the same interface.
export interface RoomPresence {
  /** Adds one connection of the user to the room and returns the users now in it. */
  join(chatId: string, userId: number): Promise<number[]>;
  /** Removes one connection and returns the users still in it. */
  leave(chatId: string, userId: number): Promise<number[]>;
  usersIn(chatId: string): Promise<number[]>;
  /**
   * Those of `userIds` not in the room, in their order: who a new message must notify. Read for every message
   * sent, so it makes nothing but the answer (in a live conversation, everyone is in the room and it is empty).
   */
  absentAmong(chatId: string, userIds: readonly number[]): Promise<number[]>;
}

export class MemoryRoomPresence implements RoomPresence {
  private readonly rooms = new Map<string, Map<number, number>>();
  async join(chatId: string, userId: number) {
    const room = this.rooms.get(chatId) ?? new Map<number, number>();
    this.rooms.set(chatId, room);
    room.set(userId, (room.get(userId) ?? 0) + 1);
    return [...room.keys()];
  }
  async leave(chatId: string, userId: number) {
    const room = this.rooms.get(chatId);
    if (!room) return [];
    const n = (room.get(userId) ?? 0) - 1;
    if (n <= 0) room.delete(userId);
    else room.set(userId, n);
    if (room.size === 0) this.rooms.delete(chatId);
    return [...room.keys()];
  }
  async usersIn(chatId: string) {
    return [...(this.rooms.get(chatId)?.keys() ?? [])];
  }
  async absentAmong(chatId: string, userIds: readonly number[]) {
    const room = this.rooms.get(chatId);
    return room ? userIds.filter((id) => !room.has(id)) : [...userIds];
  }
}
