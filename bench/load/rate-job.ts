import { performance } from 'node:perf_hooks';
import { type AckBatcher, createAckBatcher } from '@parley/web/ack-batcher';
import * as hdr from 'hdr-histogram-js';
import { benchClientId, type Client, connectRoom, openAll } from './clients';
import type { GeneratorMessage, Percentiles, PhaseResult, RateJob, RateResult } from './ipc';

// Open-loop load: message k is due at t0 + k / rate whatever the replies do, goes to room k mod N from a random
// member of it, and carries its due time, room and sequence number as its client_id (benchClientId). Every member (the sender too) must
// receive it exactly once; latency runs from the due time, so a late generator shows up as latency
// (no coordinated omission).

export const newHistogram = () => hdr.build({ numberOfSignificantValueDigits: 3 });
export type Histogram = ReturnType<typeof newHistogram>;

export function percentiles(h: Histogram): Percentiles {
  const ms = (us: number) => Math.round(us) / 1000;
  return {
    count: h.totalCount,
    p50: ms(h.getValueAtPercentile(50)),
    p95: ms(h.getValueAtPercentile(95)),
    p99: ms(h.getValueAtPercentile(99)),
    max: ms(h.maxValue),
    mean: ms(h.mean),
  };
}

/** Per room: when each message was due, the phase it was sent in, and how often each member received it. */
class RoomLedger {
  sent = 0;
  dueAt = new Float64Array(1024);
  phaseOf = new Uint8Array(1024);
  senderOf = new Uint16Array(1024);
  received: Uint8Array;
  constructor(readonly members: number) {
    this.received = new Uint8Array(1024 * members);
  }
  add(due: number, phase: number, sender: number): number {
    if (this.sent === this.dueAt.length) {
      const grow = <T extends Float64Array | Uint8Array | Uint16Array>(a: T, n: number): T => {
        const b = new (a.constructor as new (n: number) => T)(n);
        b.set(a);
        return b;
      };
      this.dueAt = grow(this.dueAt, this.dueAt.length * 2);
      this.phaseOf = grow(this.phaseOf, this.phaseOf.length * 2);
      this.senderOf = grow(this.senderOf, this.senderOf.length * 2);
      this.received = grow(this.received, this.received.length * 2);
    }
    this.dueAt[this.sent] = due;
    this.phaseOf[this.sent] = phase;
    this.senderOf[this.sent] = sender;
    return this.sent++;
  }
}

/** A ramp step the server did not carry: under 90% of what it offered delivered, or its arrivals' p99 past 1 s. */
export const saturatedStep = (
  step: Pick<PhaseResult, 'deliveredPerSecond' | 'arrivalLatency'>,
  rate: number,
  members: number,
) => step.deliveredPerSecond < 0.9 * rate * members || step.arrivalLatency.p99 > 1000;

export const encodeHistogram = (h: Histogram) => hdr.encodeIntoCompressedBase64(h);

/**
 * Runs the job to its result. On its own, the generator paces the phases and decides when a ramp has saturated;
 * `coordinated`, it waits for `next()` before each phase (the runner's go, or stop) and reports each phase's
 * result, so several generators sharing the rooms move in step and the runner judges their merged figures.
 */
export async function runRateJob(
  job: RateJob,
  report: (m: GeneratorMessage) => void,
  next: () => Promise<'go' | 'stop'> = async () => 'go',
): Promise<RateResult> {
  const t0 = performance.now();
  const rooms = job.rooms.map((r) => new RoomLedger(r.members.length));
  for (const p of job.phases)
    if ((p.settleSeconds ?? 0) >= p.seconds)
      throw new Error('A phase must last longer than its settling time.');
  const phases = [
    { label: 'warmup', settleSeconds: 0, ...job.warmup },
    ...job.phases.map((p, i) => ({ label: `phase ${i + 1}`, settleSeconds: 0, ...p })),
  ];
  const bySend = phases.map(newHistogram);
  const byArrival = phases.map(newHistogram);
  const arrivals = phases.map(() => 0);
  let current = 0;
  let unique = 0;
  let duplicated = 0;
  let misrouted = 0;
  let errorFrames = 0;
  let closedEarly = 0;
  let running = false;
  /** Arrivals before this moment are not counted in the phase's figures (its settling time). */
  let countFrom = Number.POSITIVE_INFINITY;

  const flat = job.rooms.flatMap((room, r) => room.members.map((member, m) => ({ room, r, member, m })));
  const sockets: Client[][] = job.rooms.map(() => []);
  const connectStart = performance.now();
  const { failed, firstError } = await openAll(flat.length, job.connectConcurrency, (i, settle) => {
    const { room, r, member, m } = flat[i] as (typeof flat)[number];
    const ledger = rooms[r] as RoomLedger;
    // As the web client on a visible page: only read_messages (it moves the delivered mark too), coalesced.
    const acks: AckBatcher | null = job.acks
      ? createAckBatcher({ send: (ids) => client.sendFrame({ type: 'read_messages', message_ids: ids }) })
      : null;
    const client: Client = connectRoom(
      job.kind,
      member,
      room.id,
      job.localAddresses[i % job.localAddresses.length],
      {
        ready: () => settle(true),
        chat(msgRoom, seq, _dueMicros, messageId) {
          if (msgRoom !== r || seq >= ledger.sent) {
            misrouted++;
            return;
          }
          const slot = seq * ledger.members + m;
          const seen = ledger.received[slot] as number;
          ledger.received[slot] = seen + 1;
          if (seen > 0) {
            duplicated++;
            return;
          }
          unique++;
          if (job.acks && messageId && ledger.senderOf[seq] !== m) acks?.add([messageId]);
          const now = performance.now();
          const latencyUs = Math.max(1, Math.round((now - (ledger.dueAt[seq] as number)) * 1000));
          (bySend[ledger.phaseOf[seq] as number] as Histogram).recordValue(latencyUs);
          if (now < countFrom) return;
          (byArrival[current] as Histogram).recordValue(latencyUs);
          arrivals[current] = (arrivals[current] as number) + 1;
        },
        error: () => errorFrames++,
        closed(reason) {
          acks?.drop();
          settle(false, reason);
          if (running) closedEarly++;
        },
      },
    );
    (sockets[r] as Client[])[m] = client;
    return client;
  });
  if (failed > 0) throw new Error(`${failed} of ${flat.length} room sockets failed to open: ${firstError}`);
  const connectSeconds = (performance.now() - connectStart) / 1000;
  report({ type: 'connected', sockets: flat.length, seconds: connectSeconds });

  const padding = 'x'.repeat(job.bodyBytes);
  const results: PhaseResult[] = [];
  const members = job.rooms.reduce((n, r) => n + r.members.length, 0) / job.rooms.length;
  running = true;
  let k = 0;
  await new Promise<void>((done) => {
    let phaseStart = 0;
    let phaseSent = 0;
    let phaseCpu = process.cpuUsage();
    let saturatedSteps = 0;
    let timer: ReturnType<typeof setInterval> | undefined;
    const begin = (at: number) => {
      phaseStart = at;
      countFrom = at + (phases[current]?.settleSeconds ?? 0) * 1000;
      phaseSent = 0;
      phaseCpu = process.cpuUsage();
      if (!job.coordinated) report({ type: 'mark', label: phases[current]?.label ?? '' });
    };
    const finish = () => {
      clearInterval(timer);
      if (!job.coordinated) report({ type: 'mark', label: 'end' });
      done();
    };
    const finishPhase = (end: number): PhaseResult => {
      const p = phases[current] as (typeof phases)[number];
      const cpu = process.cpuUsage(phaseCpu);
      const seconds = (end - phaseStart) / 1000;
      const generatorCpu = (cpu.user + cpu.system) / 1e6 / seconds;
      const result: PhaseResult = {
        label: p.label,
        rate: p.rate,
        seconds,
        sent: phaseSent,
        deliveredPerSecond: (arrivals[current] as number) / (seconds - p.settleSeconds),
        latency: percentiles(bySend[current] as Histogram),
        arrivalLatency: percentiles(byArrival[current] as Histogram),
        generatorCpu,
        busiestGeneratorCpu: generatorCpu,
      };
      results.push(result);
      // What arrives after the phase (the pause before the next one, the drain) is no phase's.
      countFrom = Number.POSITIVE_INFINITY;
      return result;
    };
    const tick = () => {
      const p = phases[current] as (typeof phases)[number];
      const now = performance.now();
      const phaseEnd = phaseStart + p.seconds * 1000;
      const due = Math.floor(((Math.min(now, phaseEnd) - phaseStart) / 1000) * p.rate);
      while (phaseSent < due) {
        const dueAt = phaseStart + (phaseSent * 1000) / p.rate;
        const r = k % rooms.length;
        const ledger = rooms[r] as RoomLedger;
        const roomSockets = sockets[r] as Client[];
        const senderIndex = Math.floor(Math.random() * roomSockets.length);
        const seq = ledger.add(dueAt, current, senderIndex);
        (roomSockets[senderIndex] as Client).send(
          job.linkBase && k % 5 === 0 ? withLink(`${job.linkBase}/${t0.toFixed(0)}-${k}`, padding) : padding,
          benchClientId(r, seq, Math.round((dueAt - t0) * 1000)),
        );
        phaseSent++;
        k++;
      }
      if (now < phaseEnd) return;
      const last = finishPhase(phaseEnd);
      if (job.coordinated) {
        clearInterval(timer);
        const byArrivalNow = encodeHistogram(byArrival[current] as Histogram);
        report({ type: 'phase', phase: { ...last, histograms: { bySend: '', byArrival: byArrivalNow } } });
        void next().then((command) => {
          if (command === 'stop' || current === phases.length - 1) return finish();
          current++;
          begin(performance.now());
          timer = setInterval(tick, 1);
        });
        return;
      }
      // Two saturated steps in a row, so one noisy step (someone else's burst of work) does not end a ramp.
      saturatedSteps = current > 0 && saturatedStep(last, p.rate, members) ? saturatedSteps + 1 : 0;
      if ((saturatedSteps >= 2 && job.stopWhenSaturated) || current === phases.length - 1) return finish();
      current++;
      begin(phaseEnd);
    };
    void next().then((command) => {
      if (command === 'stop') return finish();
      begin(performance.now());
      timer = setInterval(tick, 1);
    });
  });

  // Drain: wait for what is still in flight, until everything arrived or nothing has arrived for 2 s.
  const expected = () => rooms.reduce((n, r) => n + r.sent * r.members, 0);
  const drainEnd = performance.now() + job.drainSeconds * 1000;
  let lastUnique = unique;
  let lastProgress = performance.now();
  while (unique < expected() && performance.now() < drainEnd && performance.now() - lastProgress < 2000) {
    await new Promise((r) => setTimeout(r, 50));
    if (unique !== lastUnique) {
      lastUnique = unique;
      lastProgress = performance.now();
    }
  }
  running = false;
  for (const list of sockets) for (const c of list) c.close();
  // By send phase, latency is only complete now that the stragglers of each phase have arrived (or not).
  results.forEach((p, i) => {
    p.latency = percentiles(bySend[i] as Histogram);
    if (job.coordinated)
      p.histograms = {
        bySend: encodeHistogram(bySend[i] as Histogram),
        byArrival: encodeHistogram(byArrival[i] as Histogram),
      };
  });

  const measured = newHistogram();
  for (let i = 1; i < phases.length; i++) measured.add(bySend[i] as Histogram);
  return {
    mode: 'rate',
    connectSeconds,
    sockets: flat.length,
    phases: results,
    expected: expected(),
    unique,
    lost: expected() - unique,
    duplicated,
    misrouted,
    errorFrames,
    closedEarly,
    histogram: encodeHistogram(measured),
  };
}

/** A body of the same length that starts with a link. */
const withLink = (url: string, padding: string) => `${url} ${padding.slice(url.length + 1)}`;
