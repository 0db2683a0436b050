import { performance } from 'node:perf_hooks';
import { CLOSE_AUTH_FAILED, CLOSE_NOT_FOUND, CLOSE_SERVICE_RESTART, type Message } from '@parley/protocol';
import { Backoff, waitAfterClose } from '@parley/web/backoff';
import { benchClientId, type Client, type ClientEvents, connectNotifications, connectRoom } from './clients';
import type { GeneratorMessage, Member, RestartJob, RestartResult, RoomSpec } from './ipc';

// A process restart under clients that behave as the web app does: every socket reconnects by the
// web client's rule, its own code (@parley/web/backoff, as apps/web/src/lib/realtime/chat-socket.ts uses it:
// after a 1012 within a second, after anything else capped exponential back-off with jitter, without end, the
// count reset by a successful open; only 4001 and 4004 end it); in each room one member keeps sending, with
// an outbox that resends what was not yet echoed, under the same client_id, when its socket is back; every room
// member catches up over HTTP after each reconnect (everything after the newest message it had). At the end,
// each room's history is the truth: every member must have had every message in it, live or by its catch-up,
// and every message sent must be in it exactly once.

const PAGE = 100;

interface Persistent {
  /** Ready now (authenticated, first frame seen). */
  up: boolean;
  /** Gave up: the server ended the socket for good (4001, 4004). */
  gaveUp: boolean;
  stop(): void;
  client(): Client | null;
}

/** One socket kept open by the web client's reconnect rule. `onUp` runs on every (re)open. */
function persistent(
  open: (on: ClientEvents) => Client,
  handlers: Pick<ClientEvents, 'chat'> & {
    onUp(first: boolean): void;
    onDown(): void;
    error(why: string): void;
  },
): Persistent {
  let client: Client | null = null;
  const backoff = new Backoff();
  let stopped = false;
  let everUp = false;
  const state: Persistent = {
    up: false,
    gaveUp: false,
    stop() {
      stopped = true;
      backoff.cancel();
      client?.close();
    },
    client: () => (state.up ? client : null),
  };
  function connect() {
    if (stopped) return;
    let wasUp = false;
    client = open({
      ready() {
        wasUp = true;
        backoff.reset();
        state.up = true;
        handlers.onUp(!everUp);
        everUp = true;
      },
      chat: handlers.chat,
      error: () => {},
      closed(why) {
        if (wasUp) {
          state.up = false;
          handlers.onDown();
        }
        if (stopped) return;
        const code = Number(why.replace(/^close /, ''));
        if (code === CLOSE_AUTH_FAILED || code === CLOSE_NOT_FOUND) {
          state.gaveUp = true;
          handlers.error(why);
          return;
        }
        backoff.schedule(connect, waitAfterClose(code === CLOSE_SERVICE_RESTART, backoff.failures));
      },
    });
  }
  connect();
  return state;
}

/** The room's messages after `after`, oldest first, as the web app pages through them. */
async function messagesAfter(member: Member, chatId: string, after: number): Promise<Message[]> {
  const all: Message[] = [];
  for (let from = after; ; ) {
    const url = `${member.target}/api/chats/${encodeURIComponent(chatId)}/messages/?after=${from}&limit=${PAGE}`;
    const res = await fetch(url, { headers: { authorization: `Bearer ${member.token}` } });
    if (!res.ok) throw new Error(`history after ${from}: HTTP ${res.status}`);
    const page = (await res.json()) as Message[];
    all.push(...page);
    if (page.length < PAGE) return all;
    from = page[page.length - 1]?.id as number;
  }
}

export async function runRestartJob(
  job: RestartJob,
  report: (m: GeneratorMessage) => void,
  stopped: Promise<void>,
): Promise<RestartResult> {
  let firstError: string | null = null;
  const fail = (why: string) => {
    firstError ??= why;
  };
  let up = 0;
  let wentDown = false;
  let reconnects = 0;
  const total = job.members.length + job.rooms.reduce((n, r) => n + r.members.length, 0);
  // Sending starts once every socket is in (what came before a member first joined is not theirs to have had).
  let timer: NodeJS.Timeout | undefined;
  const start = performance.now();
  const onUp = (first: boolean) => {
    up++;
    if (!first) reconnects++;
    if (up === total && !timer) {
      report({ type: 'connected', sockets: total, seconds: (performance.now() - start) / 1000 });
      timer = setInterval(() => {
        for (const room of rooms) room.send();
      }, job.sendEveryMs);
    } else if (up === total && wentDown) {
      wentDown = false;
      report({ type: 'mark', label: 'back' });
    }
  };
  const onDown = () => {
    up--;
    wentDown = true;
  };

  let address = 0;
  const nextAddress = () => job.localAddresses[address++ % job.localAddresses.length];

  // Notification sockets: only up and down matter.
  const bells = job.members.map((m) => {
    const localAddress = nextAddress();
    return persistent((on) => connectNotifications(job.kind, m, localAddress, on), {
      chat: () => {},
      onUp,
      onDown,
      error: fail,
    });
  });

  // Rooms: member 0 sends; everyone records what reached them live and what their catch-ups brought.
  interface Seat {
    member: Member;
    live: Set<number>;
    caughtUp: Set<number>;
    newest: number;
    catchingUp: Promise<void>;
    socket: Persistent;
  }
  const rooms = job.rooms.map((spec: RoomSpec, r: number) => {
    const outbox = new Map<number, string>();
    let seq = 0;
    const seats: Seat[] = spec.members.map((member, i) => {
      const seat: Seat = {
        member,
        live: new Set(),
        caughtUp: new Set(),
        newest: 0,
        catchingUp: Promise.resolve(),
        socket: null as unknown as Persistent,
      };
      const localAddress = nextAddress();
      seat.socket = persistent((on) => connectRoom(job.kind, member, spec.id, localAddress, on), {
        chat(room, s, _sent, messageId) {
          seat.live.add(messageId);
          seat.newest = Math.max(seat.newest, messageId);
          if (i === 0 && room === r) outbox.delete(s);
        },
        onUp(first) {
          onUp(first);
          if (i === 0) {
            // The outbox goes out again, in order, under the same client_ids.
            const c = seat.socket.client();
            for (const [s, body] of outbox) c?.send(body, benchClientId(r, s, 0));
          }
          if (first) return;
          const after = seat.newest;
          seat.catchingUp = seat.catchingUp
            .then(() => messagesAfter(member, spec.id, after))
            .then((missed) => {
              for (const m of missed) {
                seat.caughtUp.add(m.id);
                seat.newest = Math.max(seat.newest, m.id);
              }
            })
            .catch((err: Error) => fail(`catch-up: ${err.message}`));
        },
        onDown,
        error: fail,
      });
      return seat;
    });
    const send = () => {
      seq++;
      const body = `room ${r} message ${seq}`;
      outbox.set(seq, body);
      seats[0]?.socket.client()?.send(body, benchClientId(r, seq, 0));
    };
    return { spec, seats, outbox, send, sent: () => seq };
  });

  await stopped;
  clearInterval(timer);
  // What is still unconfirmed goes out once the sender is back; give it the time to.
  const deadline = performance.now() + 20_000;
  while (rooms.some((r) => r.outbox.size > 0) && performance.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 100));
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await Promise.all(rooms.flatMap((r) => r.seats.map((s) => s.catchingUp)));

  let lost = 0;
  let duplicated = 0;
  let unsent = 0;
  let expected = 0;
  for (const [r, room] of rooms.entries()) {
    const truth = await messagesAfter(room.seats[0]?.member as Member, room.spec.id, 0);
    const bySeq = new Map<string, number>();
    for (const m of truth) bySeq.set(m.client_id ?? '', (bySeq.get(m.client_id ?? '') ?? 0) + 1);
    for (let s = 1; s <= room.sent(); s++) {
      const n = bySeq.get(benchClientId(r, s, 0)) ?? 0;
      if (n === 0) unsent++;
      if (n > 1) duplicated += n - 1;
    }
    for (const seat of room.seats)
      for (const m of truth) {
        expected++;
        if (!seat.live.has(m.id) && !seat.caughtUp.has(m.id)) lost++;
      }
  }
  const all = [...bells, ...rooms.flatMap((r) => r.seats.map((s) => s.socket))];
  const gaveUp = all.filter((p) => p.gaveUp).length;
  for (const p of all) p.stop();
  return {
    mode: 'restart',
    sockets: total,
    sent: rooms.reduce((n, r) => n + r.sent(), 0),
    expected,
    lost,
    duplicated,
    unsent,
    gaveUp,
    reconnects,
    firstError,
  };
}
