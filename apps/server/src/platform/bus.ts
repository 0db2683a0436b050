import { EventEmitter } from 'node:events';

// Fan-out between server processes. Topics: `room:<chat_id>` and `user:<user id>` (realtime/hub.ts). The
// in-process bus serves one process; with REDIS_URL, Redis pub/sub sits behind this same interface, so nothing may
// assume one process. Either way a process's own subscribers get what it publishes at once, in publish order.
export interface BusMessage {
  /** The frame to send, already serialised once for every socket. */
  data: string;
  /** A user whose sockets skip this frame (the typist, for instance). */
  exceptUserId?: number;
  /** More users whose sockets skip it (people a block stands between). */
  exceptUserIds?: number[];
  /** Only these users' sockets get it (a frame made for one reader). */
  onlyUserIds?: number[];
  /**
   * Only the sockets of the room's members ('members': presence, typing, receipts) or only those of people
   * watching a public group they have not joined ('watchers'); every socket of the topic without it.
   */
  audience?: 'members' | 'watchers';
  /**
   * The frame as some readers get it instead of `data` (their own choices in a poll): each of `userIds` gets
   * that `data`. Carried between processes, never to a client: each socket gets one frame.
   */
  variants?: { data: string; userIds: number[] }[];
  /** Internal control: close these sockets (`watchers`: only those watching from outside the group). */
  close?: { code: number; sessionIds?: number[] | 'all'; chatId?: string; watchers?: boolean };
}

export interface Bus {
  /**
   * To this process's subscribers at once, and to the other processes'. Never rejects for want of the other
   * processes (Redis away): what they miss, their clients catch up on (`onReconnect`).
   */
  publish(topic: string, message: BusMessage): Promise<void>;
  subscribe(topic: string, handler: (message: BusMessage) => void): Promise<() => Promise<void>>;
  /** Rejects while the other processes cannot be reached (readiness); absent when there are none. */
  ping?(): Promise<void>;
  /**
   * `listener` runs each time this process hears the other processes again after it could not: what they
   * published meanwhile never reached it, so its clients must catch up.
   */
  onReconnect?(listener: () => void): void;
  close(): Promise<void>;
}

export class MemoryBus implements Bus {
  private readonly emitter = new EventEmitter();
  constructor() {
    this.emitter.setMaxListeners(0);
  }
  async publish(topic: string, message: BusMessage) {
    this.emitter.emit(topic, message);
  }
  async subscribe(topic: string, handler: (message: BusMessage) => void) {
    this.emitter.on(topic, handler);
    return async () => {
      this.emitter.off(topic, handler);
    };
  }
  async close() {
    this.emitter.removeAllListeners();
  }
}
