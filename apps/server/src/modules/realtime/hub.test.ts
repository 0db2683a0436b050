import { setImmediate as nextTurn } from 'node:timers/promises';
import { CLOSE_AUTH_FAILED, CLOSE_NOT_FOUND, CLOSE_SERVICE_RESTART } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { type BusMessage, MemoryBus } from '../../platform/bus';
import { fakeClient } from '../../test-support/fake-socket';
import { Hub, topics } from './hub';

// The Hub over fake sockets and the in-process bus, whose subscribers get a publication at once: each
// `publish` below is delivered before the next line runs, so a run of them is one "moment" for the hub.

/** The in-process bus, counting live subscriptions per topic. */
class CountingBus extends MemoryBus {
  readonly live = new Map<string, number>();
  override async subscribe(topic: string, handler: (message: BusMessage) => void) {
    const off = await super.subscribe(topic, handler);
    this.live.set(topic, (this.live.get(topic) ?? 0) + 1);
    return async () => {
      this.live.set(topic, (this.live.get(topic) ?? 0) - 1);
      await off();
    };
  }
}

const ROOM = topics.room('c1');
const frame = (n: number) => JSON.stringify({ type: 'chat_message', n });

function setUp() {
  const bus = new CountingBus();
  const hub = new Hub({ bus });
  const log: string[] = [];
  const publish = (topic: string, message: BusMessage) => void bus.publish(topic, message);
  return { bus, hub, log, publish };
}

describe('Hub corking', () => {
  it('corks each connection once for the frames of one moment and uncorks it when the moment is over', async () => {
    const { hub, log, publish } = setUp();
    const a = fakeClient(log, 'a', { userId: 1 });
    const b = fakeClient(log, 'b', { userId: 2 });
    hub.attach(ROOM, a.client);
    hub.attach(ROOM, b.client);
    await hub.ready(ROOM);

    for (let n = 0; n < 3; n++) publish(ROOM, { data: frame(n) });
    // Still within the moment: every frame handed to the socket, the connection held.
    expect(log).toEqual([
      'a cork',
      `a send ${frame(0)}`,
      'b cork',
      `b send ${frame(0)}`,
      `a send ${frame(1)}`,
      `b send ${frame(1)}`,
      `a send ${frame(2)}`,
      `b send ${frame(2)}`,
    ]);

    await nextTurn();
    expect(log.slice(8)).toEqual(['a uncork', 'b uncork']);
    expect([a.tcp.corks, a.tcp.uncorks, b.tcp.corks, b.tcp.uncorks]).toEqual([1, 1, 1, 1]);
  });

  it('gives a later moment its own cork, so nothing stays held', async () => {
    const { hub, log, publish } = setUp();
    const a = fakeClient(log, 'a');
    hub.attach(ROOM, a.client);
    publish(ROOM, { data: frame(0) });
    await nextTurn();
    publish(ROOM, { data: frame(1) });
    await nextTurn();
    expect(log).toEqual([
      'a cork',
      `a send ${frame(0)}`,
      'a uncork',
      'a cork',
      `a send ${frame(1)}`,
      'a uncork',
    ]);
  });

  it("sends a user's frames to their notification sockets only, not to their rooms' sockets", async () => {
    const { hub, log, publish } = setUp();
    const inRoom = fakeClient(log, 'inRoom', { userId: 7, chatId: 'c1' });
    const bell = fakeClient(log, 'bell', { userId: 7, chatId: null });
    hub.attach(ROOM, inRoom.client);
    hub.attach(topics.user(7), inRoom.client);
    hub.attach(topics.user(7), bell.client);
    publish(ROOM, { data: frame(0) });
    publish(topics.user(7), { data: frame(1) });
    publish(ROOM, { data: frame(2) });
    await nextTurn();
    expect(inRoom.ws.texts()).toEqual([frame(0), frame(2)]);
    expect(bell.ws.texts()).toEqual([frame(1)]);
    expect([inRoom.tcp.corks, inRoom.tcp.uncorks, bell.tcp.corks, bell.tcp.uncorks]).toEqual([1, 1, 1, 1]);
  });

  it('encodes a broadcast once and sends it as text to every socket', () => {
    const { hub, log, publish } = setUp();
    const a = fakeClient(log, 'a', { userId: 1 });
    const b = fakeClient(log, 'b', { userId: 2 });
    hub.attach(ROOM, a.client);
    hub.attach(ROOM, b.client);
    publish(ROOM, { data: '{"type":"x","body":"é"}' });
    const [toA] = a.ws.sent;
    const [toB] = b.ws.sent;
    expect(toA?.data).toBeInstanceOf(Buffer);
    expect(toB?.data).toBe(toA?.data);
    expect(String(toA?.data)).toBe('{"type":"x","body":"é"}');
    expect(toA?.options).toEqual({ binary: false });
  });

  it('still sends to a socket whose connection is unknown, without corking anything', async () => {
    const { hub, log, publish } = setUp();
    const a = fakeClient(log, 'a', { withoutConnection: true });
    hub.attach(ROOM, a.client);
    publish(ROOM, { data: frame(0) });
    await nextTurn();
    expect(log).toEqual([`a send ${frame(0)}`]);
  });
});

describe('Hub delivery', () => {
  it('skips the sockets of the user a frame excepts, and sockets that are not open', () => {
    const { hub, log, publish } = setUp();
    const typist = fakeClient(log, 'typist', { userId: 1 });
    const typistsOtherTab = fakeClient(log, 'typist2', { userId: 1, sessionId: 2 });
    const reader = fakeClient(log, 'reader', { userId: 2 });
    const closing = fakeClient(log, 'closing', { userId: 3 });
    closing.ws.readyState = 2;
    for (const c of [typist, typistsOtherTab, reader, closing]) hub.attach(ROOM, c.client);

    publish(ROOM, { data: '{"type":"typing"}', exceptUserId: 1 });
    expect(typist.ws.sent).toEqual([]);
    expect(typistsOtherTab.ws.sent).toEqual([]);
    expect(reader.ws.texts()).toEqual(['{"type":"typing"}']);
    expect(closing.ws.sent).toEqual([]);
    expect(closing.tcp.corks + typist.tcp.corks).toBe(0);
  });

  it('drops a socket more than 4 MiB behind instead of sending to it; one exactly 4 MiB behind still gets it', () => {
    const { hub, log, publish } = setUp();
    const behind = fakeClient(log, 'behind', { userId: 1 });
    const atLimit = fakeClient(log, 'atLimit', { userId: 2 });
    const keeping = fakeClient(log, 'keeping', { userId: 3 });
    behind.ws.bufferedAmount = 4 * 1024 * 1024 + 1;
    atLimit.ws.bufferedAmount = 4 * 1024 * 1024;
    for (const c of [behind, atLimit, keeping]) hub.attach(ROOM, c.client);

    publish(ROOM, { data: frame(0) });
    expect(behind.ws.terminated).toBe(true);
    expect(behind.ws.sent).toEqual([]);
    expect(behind.tcp.corks).toBe(0);
    expect(atLimit.ws.texts()).toEqual([frame(0)]);
    expect(keeping.ws.texts()).toEqual([frame(0)]);

    // Terminated, it is no longer open: later frames pass it by.
    publish(ROOM, { data: frame(1) });
    expect(log.filter((l) => l.startsWith('behind'))).toEqual(['behind terminate']);
  });
});

describe('Hub variants', () => {
  it('sends each named user their own variant (encoded once per variant), everyone else the frame', () => {
    const { hub, log, publish } = setUp();
    const [a, a2, b, c] = [
      fakeClient(log, 'a', { userId: 1 }),
      fakeClient(log, 'a2', { userId: 1 }),
      fakeClient(log, 'b', { userId: 2 }),
      fakeClient(log, 'c', { userId: 3 }),
    ];
    for (const x of [a, a2, b, c]) hub.attach(ROOM, x.client);
    publish(ROOM, {
      data: '{"mine":[]}',
      variants: [
        { data: '{"mine":[0]}', userIds: [1, 4] },
        { data: '{"mine":[1]}', userIds: [2] },
      ],
    });
    expect([a, a2, b, c].map((x) => x.ws.texts())).toEqual([
      ['{"mine":[0]}'],
      ['{"mine":[0]}'],
      ['{"mine":[1]}'],
      ['{"mine":[]}'],
    ]);
    expect(a2.ws.sent[0]?.data).toBe(a.ws.sent[0]?.data);
  });
});

describe('Hub topics', () => {
  it('subscribes a topic on the bus while any socket needs it', async () => {
    const { bus, hub, log, publish } = setUp();
    const a = fakeClient(log, 'a', { userId: 1 });
    const b = fakeClient(log, 'b', { userId: 2 });
    hub.attach(ROOM, a.client);
    hub.attach(ROOM, b.client);
    await hub.ready(ROOM);
    expect(bus.live.get(ROOM)).toBe(1);

    hub.detach(ROOM, a.client);
    publish(ROOM, { data: frame(0) });
    expect(a.ws.sent).toEqual([]);
    expect(b.ws.texts()).toEqual([frame(0)]);
    expect(bus.live.get(ROOM)).toBe(1);

    hub.detach(ROOM, b.client);
    await nextTurn();
    expect(bus.live.get(ROOM)).toBe(0);
    publish(ROOM, { data: frame(1) });
    expect(b.ws.texts()).toEqual([frame(0)]);

    // Needed again: subscribed anew.
    hub.attach(ROOM, a.client);
    await hub.ready(ROOM);
    expect(bus.live.get(ROOM)).toBe(1);
    publish(ROOM, { data: frame(2) });
    expect(a.ws.texts()).toEqual([frame(2)]);
  });

  it('ignores a detach from a topic it does not hold, and a ready for one', async () => {
    const { bus, hub, log } = setUp();
    const a = fakeClient(log, 'a');
    hub.detach(ROOM, a.client);
    await hub.ready(ROOM);
    expect(bus.live.size).toBe(0);
  });

  it('delivers a topic only to the sockets attached to it', () => {
    const { hub, log, publish } = setUp();
    const inC1 = fakeClient(log, 'inC1', { userId: 1 });
    const inC2 = fakeClient(log, 'inC2', { userId: 2, chatId: 'c2' });
    hub.attach(ROOM, inC1.client);
    hub.attach(topics.room('c2'), inC2.client);
    publish(ROOM, { data: frame(0) });
    expect(inC1.ws.texts()).toEqual([frame(0)]);
    expect(inC2.ws.sent).toEqual([]);
  });

  it("watches every socket attached to its user's topic, and only those", () => {
    const { hub, log } = setUp();
    const a = fakeClient(log, 'a', { userId: 1 });
    const b = fakeClient(log, 'b', { userId: 2 });
    const roomOnly = fakeClient(log, 'roomOnly', { userId: 3 });
    hub.attach(topics.user(1), a.client);
    hub.attach(ROOM, a.client);
    hub.attach(topics.user(2), b.client);
    hub.attach(ROOM, roomOnly.client);
    expect([...hub.watched()]).toEqual([a.client, b.client]);
    hub.detach(topics.user(1), a.client);
    expect([...hub.watched()]).toEqual([b.client]);
  });
});

describe('Hub close control messages', () => {
  function sockets() {
    const s = setUp();
    const control = topics.user(1);
    const tabs = [
      fakeClient(s.log, 's1c1', { userId: 1, sessionId: 1, chatId: 'c1' }),
      fakeClient(s.log, 's1c2', { userId: 1, sessionId: 1, chatId: 'c2' }),
      fakeClient(s.log, 's2bell', { userId: 1, sessionId: 2, chatId: null }),
      fakeClient(s.log, 's3c1', { userId: 1, sessionId: 3, chatId: 'c1' }),
    ];
    for (const t of tabs) s.hub.attach(control, t.client);
    const closed = () => s.log.filter((l) => l.includes(' close ')).map((l) => l.split(' ')[0]);
    return { ...s, control, closed };
  }

  it("closes the listed sessions' sockets with the code, sending nothing", async () => {
    const { control, publish, closed, log } = sockets();
    publish(control, { data: '', close: { code: CLOSE_AUTH_FAILED, sessionIds: [1, 3] } });
    await nextTurn();
    expect(closed()).toEqual(['s1c1', 's1c2', 's3c1']);
    expect(log.every((l) => l.includes(` close ${CLOSE_AUTH_FAILED}`))).toBe(true);
  });

  it("closes every socket for 'all' sessions or when no sessions are named", () => {
    const all = sockets();
    all.publish(all.control, { data: '', close: { code: CLOSE_AUTH_FAILED, sessionIds: 'all' } });
    expect(all.closed()).toEqual(['s1c1', 's1c2', 's2bell', 's3c1']);
    const unnamed = sockets();
    unnamed.publish(unnamed.control, { data: '', close: { code: CLOSE_AUTH_FAILED } });
    expect(unnamed.closed()).toEqual(['s1c1', 's1c2', 's2bell', 's3c1']);
  });

  it('closes only the sockets in the named chat (removed from a group), whatever the session', () => {
    const { control, publish, closed, log } = sockets();
    publish(control, { data: '', close: { code: CLOSE_NOT_FOUND, chatId: 'c1' } });
    expect(closed()).toEqual(['s1c1', 's3c1']);
    expect(log).toEqual([`s1c1 close ${CLOSE_NOT_FOUND}`, `s3c1 close ${CLOSE_NOT_FOUND}`]);
  });

  it('closes only where both the session and the chat match when both are named', () => {
    const { control, publish, closed } = sockets();
    publish(control, { data: '', close: { code: CLOSE_NOT_FOUND, sessionIds: [1], chatId: 'c1' } });
    expect(closed()).toEqual(['s1c1']);
  });
});

describe('Hub catch-up when the bus hears the other processes again', () => {
  /** The in-process bus, with the reconnection a Redis bus tells of. */
  class ReconnectingBus extends MemoryBus {
    private readonly listeners: (() => void)[] = [];
    onReconnect(listener: () => void) {
      this.listeners.push(listener);
    }
    reconnected() {
      for (const l of this.listeners) l();
    }
  }

  it('closes every socket of the process with 1012, rooms and notifications alike, so each client catches up', async () => {
    const bus = new ReconnectingBus();
    const hub = new Hub({ bus });
    const log: string[] = [];
    const room = fakeClient(log, 'room', { userId: 1, chatId: 'c1' });
    const bell = fakeClient(log, 'bell', { userId: 2, chatId: null });
    for (const { client } of [room, bell]) {
      hub.attach(topics.user(client.userId), client);
      if (client.chatId) hub.attach(topics.room(client.chatId), client);
    }
    expect(log).toEqual([]);
    bus.reconnected();
    await nextTurn();
    expect(room.ws.closeCodes).toEqual([CLOSE_SERVICE_RESTART]);
    expect(bell.ws.closeCodes).toEqual([CLOSE_SERVICE_RESTART]);
  });

  it('asks a great many sockets in batches, not all in the same instant', async () => {
    const hub = new Hub({ bus: new MemoryBus() });
    const log: string[] = [];
    const many = Array.from({ length: 1200 }, (_, i) =>
      fakeClient(log, `s${i}`, { userId: i, chatId: null }),
    );
    for (const { client } of many) hub.attach(topics.user(client.userId), client);
    const asking = hub.catchUp();
    const closedNow = many.filter((c) => c.ws.closeCodes.length > 0).length;
    await asking;
    expect(closedNow).toBe(500);
    expect(many.every((c) => c.ws.closeCodes[0] === CLOSE_SERVICE_RESTART)).toBe(true);
  });
});
