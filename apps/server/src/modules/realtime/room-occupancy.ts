import type { FastifyBaseLogger } from 'fastify';
import { jobLog } from '../../platform/job-log';
import type { RoomPresence } from '../../platform/room-presence';
import type { FramePublisher } from './frame-publisher';

/** How long after an occupancy announcement further changes are gathered into one. */
const OCCUPANCY_WINDOW_MS = 250;

/** A room's occupancy announcements: one is due (`pending`), or changes came since the last one (`dirty`). */
interface Occupancy {
  pending: boolean;
  dirty: boolean;
  /** The prompt announcement, and the end of the window after one. */
  soon: NodeJS.Immediate | null;
  windowEnd: NodeJS.Timeout | null;
}

export interface RoomOccupancyDeps {
  rooms: Pick<RoomPresence, 'usersIn'>;
  frames: Pick<FramePublisher, 'toRoomPerViewer'>;
  log: FastifyBaseLogger;
}

/**
 * Who is in each room (in_chat_users_update and in_chat_count), announced after someone joined or left. The
 * first change after a quiet spell goes out on the next turn of the event loop; changes during the window after
 * an announcement wait for its end and go out together, so filling a room of n sends each socket a handful of
 * announcements instead of n. Every announcement reads the room as it is then, so it is right whichever process
 * saw the change.
 */
export class RoomOccupancy {
  private readonly rooms = new Map<string, Occupancy>();
  private closed = false;

  constructor(private readonly deps: RoomOccupancyDeps) {}

  changed(chatId: string): void {
    if (this.closed) return;
    const room = this.rooms.get(chatId);
    if (!room) {
      const fresh: Occupancy = { pending: true, dirty: false, soon: null, windowEnd: null };
      fresh.soon = setImmediate(() => void this.announce(chatId, fresh));
      this.rooms.set(chatId, fresh);
    } else if (!room.pending) {
      room.dirty = true;
    }
  }

  /** Drops pending announcements; later changes are ignored (the app is closing). */
  close(): void {
    this.closed = true;
    for (const room of this.rooms.values()) {
      if (room.soon) clearImmediate(room.soon);
      if (room.windowEnd) clearTimeout(room.windowEnd);
    }
    this.rooms.clear();
  }

  private async announce(chatId: string, room: Occupancy): Promise<void> {
    if (this.closed) return;
    // A change from here on may miss the read below, so it waits for the window's end.
    room.pending = false;
    room.dirty = false;
    room.soon = null;
    await this.send(chatId);
    if (this.closed) return;
    room.windowEnd = setTimeout(() => {
      room.windowEnd = null;
      if (!room.dirty || this.closed) {
        this.rooms.delete(chatId);
        return;
      }
      room.pending = true;
      void this.announce(chatId, room);
    }, OCCUPANCY_WINDOW_MS);
  }

  /** Someone in the room with a block between them and another there hears of the room without that person. */
  private async send(chatId: string): Promise<void> {
    try {
      const userIds = await this.deps.rooms.usersIn(chatId);
      await this.deps.frames.toRoomPerViewer(chatId, userIds, (hidden) => {
        const ids = userIds.filter((id) => !hidden.has(id));
        return [
          { type: 'in_chat_users_update', user_ids: ids },
          { type: 'in_chat_count', count: ids.length },
        ];
      });
    } catch (err) {
      jobLog(this.deps.log, 'room occupancy round').error({ err }, 'room occupancy announcement failed');
    }
  }
}
