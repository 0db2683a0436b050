import { notificationFrameSchema, serverFrameSchema } from '@parley/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../http/api-error';
import {
  ATTEMPT_TIMEOUT_MS,
  newClientId,
  ReconnectingSocket,
  type SocketLike,
  type SocketStatus,
  socketUrl,
} from './chat-socket';
import { droppedFrameCount, type FrameSchema } from './lazy-frame-schema';

class FakeSocket implements SocketLike {
  readyState = 0;
  onopen: SocketLike['onopen'] = null;
  onclose: SocketLike['onclose'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onerror: SocketLike['onerror'] = null;
  sent: string[] = [];
  closedWith: number | undefined;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(data);
  }
  close(code?: number) {
    this.closedWith = code;
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  serverClose(code: number) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
  receive(data: string) {
    this.onmessage?.({ data });
  }
}

const texts = {
  connectionError: 'Connection error',
  invalidFormat: 'Invalid message format',
  authFailed: 'Authentication failed',
  notFound: 'Chat room not found',
};

let sockets: FakeSocket[];
let statuses: SocketStatus[];
let errors: Array<string | null>;
let frames: unknown[];
let opens: number;
let tickets: number;
let retryAts: Array<number | null>;
let urlImpl: () => Promise<string>;

/** The jitter draw: 0.5 by default, so the waits are 0.75, 1.5, 3, 6, 12, 22.5, 22.5 … s and a 1012's 0.5 s. */
let draw = 0.5;

function make(schema: FrameSchema<{ type: string }> = serverFrameSchema) {
  return new ReconnectingSocket<{ type: string }>({
    url: () => urlImpl(),
    schema,
    texts,
    onFrame: (f) => frames.push(f),
    onStatus: (s) => statuses.push(s),
    onError: (e) => errors.push(e),
    onOpen: () => opens++,
    onRetryAt: (at) => retryAts.push(at),
    backoff: { random: () => draw },
    createSocket: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
  });
}

const last = () => sockets[sockets.length - 1]!;
/** Lets the ticket promise resolve and the socket get created. */
const flush = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
  draw = 0.5;
  retryAts = [];
  sockets = [];
  statuses = [];
  errors = [];
  frames = [];
  opens = 0;
  tickets = 0;
  urlImpl = async () => `ws://x/ws/chatroom/c1/?token=t${++tickets}`;
});
afterEach(() => {
  vi.useRealTimers();
});

describe('ReconnectingSocket (SPEC §4 chat channel connection)', () => {
  it('connects with a fresh ticket, reports connected and passes frames on', async () => {
    const socket = make();
    socket.start();
    expect(socket.status).toBe('connecting');
    await flush();
    expect(last().url).toBe('ws://x/ws/chatroom/c1/?token=t1');
    last().open();
    expect(socket.status).toBe('connected');
    expect(opens).toBe(1);
    expect(errors).toEqual([null]);
    last().receive('{"type":"in_chat_count","count":2}');
    expect(frames).toEqual([{ type: 'in_chat_count', count: 2 }]);
  });

  it('reports an unparseable frame and stays connected', async () => {
    const socket = make();
    socket.start();
    await flush();
    last().open();
    last().receive('not json');
    last().receive('{"no":"type"}');
    expect(errors.filter(Boolean)).toEqual(['Invalid message format', 'Invalid message format']);
    expect(socket.status).toBe('connected');
    expect(frames).toEqual([]);
  });

  describe('frames are parsed with their schema, never cast', () => {
    let warn: ReturnType<typeof vi.spyOn>;
    beforeEach(() => {
      warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    });
    afterEach(() => {
      warn.mockRestore();
    });
    /** An open socket, and the drop count before anything arrived on it. */
    const connected = async (schema?: FrameSchema<{ type: string }>) => {
      const socket = make(schema);
      socket.start();
      await flush();
      last().open();
      return { socket, before: droppedFrameCount() };
    };

    it('drops a refused frame, warning with its type and paths only, and passes valid ones on', async () => {
      const { socket, before } = await connected();
      last().receive('{"type":"in_chat_count","count":"2"}');
      // A message frame whose message lacks fields: its body must not reach the log.
      last().receive('{"type":"chat_message","message":{"id":1,"body":"secret words"}}');
      last().receive('{"type":"no_such_frame"}');
      expect(droppedFrameCount() - before).toBe(3);
      expect(frames).toEqual([]);
      expect(errors.filter(Boolean)).toEqual([]);
      expect(socket.status).toBe('connected');
      expect(warn).toHaveBeenCalledTimes(3);
      expect(warn.mock.calls[0]).toEqual([
        'Dropped a malformed socket frame',
        { type: 'in_chat_count', paths: ['count'] },
      ]);
      const [, second] = warn.mock.calls[1]!;
      expect(second).toMatchObject({ type: 'chat_message' });
      expect((second as { paths: string[] }).paths).toContain('message.sender');
      expect(JSON.stringify(warn.mock.calls)).not.toContain('secret words');

      last().receive('{"type":"typing","user_id":2,"username":"grace","is_typing":true}');
      expect(frames).toEqual([{ type: 'typing', user_id: 2, username: 'grace', is_typing: true }]);
      expect(droppedFrameCount() - before).toBe(3);
    });

    it('parses the notification channel with its own schema', async () => {
      const { before } = await connected(notificationFrameSchema);
      // A room frame is not a notification frame.
      last().receive('{"type":"in_chat_count","count":2}');
      last().receive('{"type":"new_message","message":{"sender":"Ada","message":"hello there"}}');
      expect(droppedFrameCount() - before).toBe(2);
      expect(JSON.stringify(warn.mock.calls)).not.toContain('hello there');
      last().receive('{"type":"notification_count","count":4}');
      expect(frames).toEqual([{ type: 'notification_count', count: 4 }]);
    });
  });

  it('4001 ends with "Authentication failed" and never reconnects', async () => {
    const socket = make();
    socket.start();
    await flush();
    last().open();
    last().serverClose(4001);
    expect(socket.status).toBe('disconnected');
    expect(errors.at(-1)).toBe('Authentication failed');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sockets).toHaveLength(1);
    socket.reconnectNow();
    await flush();
    expect(sockets).toHaveLength(1);
  });

  it('4004 ends with "Chat room not found" and never reconnects', async () => {
    const socket = make();
    socket.start();
    await flush();
    last().serverClose(4004);
    expect(socket.status).toBe('disconnected');
    expect(errors.at(-1)).toBe('Chat room not found');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sockets).toHaveLength(1);
  });

  /** Advances to the attempt the socket says is next, checking it comes then and not sooner; the wait (ms). */
  const waitForAttempt = async (socket: ReconnectingSocket<{ type: string }>) => {
    const before = sockets.length;
    expect(socket.retryAt).not.toBeNull();
    const wait = (socket.retryAt ?? 0) - Date.now();
    if (wait > 0) await vi.advanceTimersByTimeAsync(wait - 1);
    expect(sockets).toHaveLength(before);
    await vi.advanceTimersByTimeAsync(1);
    expect(sockets).toHaveLength(before + 1);
    return wait;
  };

  it('any other close is retried without end, each wait longer up to 30 s, each with a new ticket', async () => {
    const socket = make();
    socket.start();
    await flush();
    last().open();
    last().serverClose(1006);
    expect(socket.status).toBe('reconnecting');
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 12; attempt++) {
      waits.push(await waitForAttempt(socket));
      expect(last().url).toBe(`ws://x/ws/chatroom/c1/?token=t${attempt + 1}`);
      expect(socket.status).toBe('reconnecting');
      last().serverClose(1006);
    }
    expect(waits).toEqual([750, 1500, 3000, 6000, 12_000, ...Array(7).fill(22_500)]);
    expect(socket.status).toBe('reconnecting');
    // Twenty minutes later it still tries, at most 30 s apart.
    draw = 0.999_999;
    for (let i = 0; i < 40; i++) {
      expect(await waitForAttempt(socket)).toBeLessThanOrEqual(30_000);
      last().serverClose(1006);
    }
    expect(socket.attemptsMade).toBe(53);
  });

  it('spreads its waits: each is drawn between half and all of its step', async () => {
    const firstWait = async (value: number) => {
      draw = value;
      const socket = make();
      sockets = [];
      socket.start();
      await flush();
      last().open();
      last().serverClose(1006);
      const waited = await waitForAttempt(socket);
      socket.stop();
      return waited;
    };
    expect(await firstWait(0)).toBe(500);
    expect(await firstWait(0.25)).toBe(625);
    expect(await firstWait(0.999)).toBe(999);
  });

  it('says when the next attempt is due, and that none waits while one is under way', async () => {
    const socket = make();
    socket.start();
    await flush();
    last().open();
    const closedAt = Date.now();
    last().serverClose(1006);
    expect(retryAts).toEqual([closedAt + 750]);
    expect(socket.retryAt).toBe(closedAt + 750);
    await waitForAttempt(socket);
    expect(retryAts.at(-1)).toBeNull();
    expect(socket.retryAt).toBeNull();
    last().open();
    expect(retryAts).toEqual([closedAt + 750, null]);
  });

  it('a successful open starts the waits over', async () => {
    const socket = make();
    socket.start();
    await flush();
    last().open();
    for (let i = 0; i < 4; i++) {
      last().serverClose(1011);
      await waitForAttempt(socket);
    }
    expect(socket.attemptsMade).toBe(4);
    last().open();
    expect(socket.attemptsMade).toBe(0);
    expect(opens).toBe(2);
    last().serverClose(1006);
    expect(await waitForAttempt(socket)).toBe(750);
  });

  it('after a 1012 (a server restarting) tries again within a second, then waits as usual', async () => {
    const socket = make();
    socket.start();
    await flush();
    last().open();
    last().serverClose(1012);
    // 0–1 s, drawn: half a second here.
    expect(await waitForAttempt(socket)).toBe(500);
    expect(socket.attemptsMade).toBe(1);
    // Another close waits the next step.
    last().serverClose(1006);
    expect(await waitForAttempt(socket)).toBe(1500);
  });

  it('drops an attempt that neither opens nor fails, and tries again', async () => {
    const socket = make();
    socket.start();
    await flush();
    const hung = last();
    await vi.advanceTimersByTimeAsync(ATTEMPT_TIMEOUT_MS - 1);
    expect(sockets).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(hung.closedWith).toBe(1000);
    expect(socket.status).toBe('reconnecting');
    expect(await waitForAttempt(socket)).toBe(750);
    // The dropped socket's late events are not heard.
    hung.open();
    expect(opens).toBe(0);
    last().open();
    expect(opens).toBe(1);
    // An open attempt has no deadline.
    await vi.advanceTimersByTimeAsync(ATTEMPT_TIMEOUT_MS * 3);
    expect(socket.status).toBe('connected');
  });

  it('leaving closes with 1000 and stops reconnecting, even during a retry wait', async () => {
    const socket = make();
    socket.start();
    await flush();
    last().open();
    socket.stop();
    expect(sockets[0]!.closedWith).toBe(1000);
    expect(socket.status).toBe('disconnected');

    const again = make();
    again.start();
    await flush();
    last().serverClose(1006);
    again.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sockets).toHaveLength(2);
  });

  it('ignores a ticket that arrives after leaving', async () => {
    let resolve: (url: string) => void = () => {};
    urlImpl = () => new Promise((r) => (resolve = r));
    const socket = make();
    socket.start();
    socket.stop();
    resolve('ws://x/late');
    await flush();
    expect(sockets).toHaveLength(0);
  });

  it('a failed ticket request counts as a failed attempt; a 401 ends like 4001', async () => {
    urlImpl = async () => {
      throw new ApiError(0, null);
    };
    const socket = make();
    socket.start();
    await flush();
    expect(errors.at(-1)).toBe('Connection error');
    expect(socket.status).toBe('reconnecting');
    urlImpl = async () => {
      throw new ApiError(401, { detail: 'Invalid token.' });
    };
    await vi.advanceTimersByTimeAsync(750);
    expect(socket.status).toBe('disconnected');
    expect(errors.at(-1)).toBe('Authentication failed');
    expect(socket.retryAt).toBeNull();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(socket.status).toBe('disconnected');
  });

  it('does not send while disconnected, sends JSON when connected, reports a throwing send', async () => {
    const socket = make();
    expect(socket.send({ type: 'typing', is_typing: true })).toBe('not_connected');
    socket.start();
    await flush();
    expect(socket.send({ type: 'typing', is_typing: true })).toBe('not_connected');
    last().open();
    expect(socket.send({ type: 'typing', is_typing: true })).toBe('sent');
    expect(last().sent).toEqual(['{"type":"typing","is_typing":true}']);
    last().send = () => {
      throw new Error('boom');
    };
    expect(socket.send({ type: 'typing', is_typing: false })).toBe('failed');
  });

  it('reconnectNow skips the wait, keeps the next wait growing, and does nothing mid-attempt', async () => {
    const socket = make();
    socket.start();
    await flush();
    last().serverClose(1006);
    socket.reconnectNow();
    expect(retryAts).toEqual([expect.any(Number), null]);
    await flush();
    expect(sockets).toHaveLength(2);
    // Under way: a second call makes no second socket.
    socket.reconnectNow();
    await flush();
    expect(sockets).toHaveLength(2);
    last().serverClose(1006);
    expect(await waitForAttempt(socket)).toBe(1500);
    socket.stop();
    socket.reconnectNow();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sockets).toHaveLength(3);
  });

  it('ignores events of a socket it has replaced', async () => {
    const socket = make();
    socket.start();
    await flush();
    const first = last();
    first.open();
    socket.stop();
    first.receive('{"type":"in_chat_count","count":1}');
    first.serverClose(1006);
    expect(frames).toEqual([]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sockets).toHaveLength(1);
  });
});

describe('socketUrl', () => {
  it('uses the page host, wss on https, and escapes the ticket', () => {
    expect(
      socketUrl('/ws/notifications/', 'a b', undefined, { protocol: 'https:', host: 'chat.example' }),
    ).toBe('wss://chat.example/ws/notifications/?token=a%20b');
    expect(socketUrl('/ws/x/', 't', '', { protocol: 'http:', host: 'localhost:5173' })).toBe(
      'ws://localhost:5173/ws/x/?token=t',
    );
  });

  it('uses the host of VITE_API_URL when it names one', () => {
    expect(socketUrl('/ws/x/', 't', 'https://api.example:8443/api', { protocol: 'http:', host: 'p' })).toBe(
      'wss://api.example:8443/ws/x/?token=t',
    );
    expect(socketUrl('/ws/x/', 't', '/api', { protocol: 'http:', host: 'p:1' })).toBe(
      'ws://p:1/ws/x/?token=t',
    );
  });
});

describe('newClientId', () => {
  it('makes distinct v7 UUIDs that sort in the order they were made', () => {
    const a = newClientId();
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const made = Array.from({ length: 1000 }, () => newClientId());
    expect(new Set(made).size).toBe(1000);
    expect([...made].sort()).toEqual(made);
    expect(made[0]! > a).toBe(true);
  });
});
