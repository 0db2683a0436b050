import WebSocket from 'ws';
import { type Endpoint, roomPath } from './server-process';
import type { Json } from './test-app';
import { sleep, withTimeout } from './waits';
import type { CloseInfo } from './ws-client';

// A lean socket for load: frames go to a callback and are not kept (the harness WsClient keeps every frame).

export class LoadSocket {
  private closeInfo: CloseInfo | null = null;
  readonly closed: Promise<CloseInfo>;

  private constructor(
    readonly ws: WebSocket,
    onFrame: (frame: Json) => void,
  ) {
    ws.on('message', (data: Buffer) => onFrame(JSON.parse(data.toString('utf8'))));
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        this.closeInfo = { code, reason: reason.toString('utf8') };
        resolve(this.closeInfo);
      });
    });
  }

  /** Opens a socket (a fresh ticket from `proc`); rejects if it does not open within `timeoutMs`. */
  static async open(
    proc: Endpoint,
    socketPath: string,
    token: string,
    onFrame: (frame: Json) => void,
    timeoutMs = 10_000,
  ): Promise<LoadSocket> {
    const ws = new WebSocket(proc.wsUrl(socketPath, await proc.ticket(token)));
    const socket = new LoadSocket(ws, onFrame);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`socket ${socketPath}: not open in ${timeoutMs} ms`)),
        timeoutMs,
      );
      ws.once('open', () => {
        clearTimeout(timer);
        resolve();
      });
      ws.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
    ws.on('error', () => {
      // A reset after a kill shows as a close (1006).
    });
    return socket;
  }

  /** Opens a room socket and resolves once the server has put it in the room (its first in_chat_users_update). */
  static async joinRoom(
    proc: Endpoint,
    chatId: string,
    token: string,
    onFrame: (frame: Json) => void,
    timeoutMs = 20_000,
  ): Promise<LoadSocket> {
    let joined: () => void = () => {};
    const inRoom = new Promise<void>((resolve) => {
      joined = resolve;
    });
    const socket = await LoadSocket.open(proc, roomPath(chatId), token, (f) => {
      if (f.type === 'in_chat_users_update') joined();
      onFrame(f);
    });
    const closed = socket.closed.then((c) => Promise.reject(new Error(`room ${chatId} closed: ${c.code}`)));
    await withTimeout(Promise.race([inRoom, closed]), timeoutMs, `joining room ${chatId}`);
    return socket;
  }

  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  get isClosed(): boolean {
    return this.closeInfo !== null;
  }

  send(frame: object): boolean {
    if (this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  async close(): Promise<CloseInfo> {
    if (!this.closeInfo && this.ws.readyState !== WebSocket.CLOSED) this.ws.close(1000);
    const timeout = sleep(3000).then(() => {
      this.ws.terminate();
      return this.closed;
    });
    return Promise.race([this.closed, timeout]);
  }
}

/** The q-quantile (0..1) of numbers. */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}
