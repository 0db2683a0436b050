// What the runner and the load generator processes say to each other (over the fork IPC channel).

/** Parley (its room and notification sockets), the bare `ws` peer or the Socket.IO peer. */
export type ServerKind = 'parley' | 'ws' | 'socketio';

export interface Member {
  /** Base URL of the server process this member connects to (http://127.0.0.1:port). */
  target: string;
  /** Parley: a session token. Peers: the user id. */
  token: string;
}

export interface RoomSpec {
  id: string;
  members: Member[];
}

interface JobBase {
  kind: ServerKind;
  /** Source addresses to spread connections over (127.0.0.2, 127.0.0.3 ...). */
  localAddresses: string[];
  connectConcurrency: number;
}

/** Open loop: messages at fixed rates, phase after phase; a ramp stops at the first phase it cannot carry. */
export interface RateJob extends JobBase {
  mode: 'rate';
  rooms: RoomSpec[];
  bodyBytes: number;
  /** Every fifth body starts with a link of its own under this address (link previews at work). */
  linkBase?: string;
  warmup: { rate: number; seconds: number };
  /**
   * `settleSeconds`: arrivals in a phase's first seconds are not counted in its figures (they still count as
   * received). A server with a deeper queue takes longer to reach a new rate, and between coordinated phases the
   * messages still in flight arrive in the pause; a window that starts once the queue has settled measures what
   * the server sustains, not how fast its latency reached the new step.
   */
  phases: { rate: number; seconds: number; settleSeconds?: number }[];
  /** Stop after two phases in a row that deliver under 90% of what they offer or whose p99 passes 1 s. */
  stopWhenSaturated: boolean;
  /** Parley only: each member acknowledges others' messages as the web client on a visible page does: one
   *  read_messages frame per room per 250 ms at most, carrying every id seen meanwhile. */
  acks?: boolean;
  drainSeconds: number;
  /** One of several generators sharing the rooms: each phase starts when the runner says `go`, and its
   *  result goes back to the runner, which merges every generator's and decides whether to go on. */
  coordinated?: boolean;
}

/** Opens one authenticated notification socket per member, holds them until told to close. */
export interface IdleJob extends JobBase {
  mode: 'idle';
  members: Member[];
}

/** Workers open an authenticated socket, wait for its first frame, close it and start again. */
export interface ChurnJob extends JobBase {
  mode: 'churn';
  members: Member[];
  concurrency: number;
  warmupSeconds: number;
  seconds: number;
}

/** Keeps notification and room sockets open by the web client's reconnect rule through a server restart; one
 *  member of each room sends every `sendEveryMs` with an outbox. Ends on the runner's `stop`. */
export interface RestartJob extends JobBase {
  mode: 'restart';
  members: Member[];
  rooms: RoomSpec[];
  sendEveryMs: number;
}

export type Job = RateJob | IdleJob | ChurnJob | RestartJob;

export interface Percentiles {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

export interface PhaseResult {
  label: string;
  rate: number;
  seconds: number;
  /** Messages sent in this phase. */
  sent: number;
  /** Unique deliveries received while this phase ran, after its settling time (RateJob.phases), per second. */
  deliveredPerSecond: number;
  /** Latency (ms) of the messages sent in this phase, wherever they arrived. */
  latency: Percentiles;
  /** Latency (ms) of what arrived in the same window (for spotting a backlog during a ramp). */
  arrivalLatency: Percentiles;
  /** Generator CPU over this phase, as a share of one core (summed over the generators once merged). */
  generatorCpu: number;
  /** The busiest generator process's CPU over this phase: at one core, that generator is the ceiling. */
  busiestGeneratorCpu: number;
  /** The phase's HDR histograms (µs, compressed base64), for merging several generators' phases. */
  histograms?: { bySend: string; byArrival: string };
}

export interface RateResult {
  mode: 'rate';
  connectSeconds: number;
  sockets: number;
  phases: PhaseResult[];
  /** Messages sent × room members (everyone in the room, the sender included, gets each message). */
  expected: number;
  unique: number;
  lost: number;
  duplicated: number;
  misrouted: number;
  errorFrames: number;
  closedEarly: number;
  /** HDR histogram of the measured phases (µs), compressed base64 (hdr-histogram-js encoding). */
  histogram: string;
}

export interface IdleResult {
  mode: 'idle';
  connected: number;
  failed: number;
  connectSeconds: number;
  firstError: string | null;
}

export interface ChurnResult {
  mode: 'churn';
  cycles: number;
  failed: number;
  perSecond: number;
  /** Connect → first frame (ms). */
  setup: Percentiles;
  generatorCpu: number;
  firstError: string | null;
}

export interface RestartResult {
  mode: 'restart';
  sockets: number;
  /** Messages the rooms' senders sent (each once, whatever their outbox resent). */
  sent: number;
  /** Messages in the rooms' histories × members: what the members had to have. */
  expected: number;
  /** Of those, what a member had neither live nor from its catch-ups. */
  lost: number;
  /** Messages stored more than once, and sent ones never stored. */
  duplicated: number;
  unsent: number;
  /** Sockets that stopped trying (five failed attempts in a row, or a 4001/4004). */
  gaveUp: number;
  reconnects: number;
  firstError: string | null;
}

export type JobResult = RateResult | IdleResult | ChurnResult | RestartResult;

/** Generator → runner. `mark` comes at the start of each phase and at the end, so the runner can sample the server. */
export type GeneratorMessage =
  | { type: 'connected'; sockets: number; seconds: number }
  | { type: 'mark'; label: string }
  /** A coordinated rate job finished a phase (its byArrival histogram included) and waits for `go` or `stop`. */
  | { type: 'phase'; phase: PhaseResult }
  | { type: 'result'; result: JobResult }
  | { type: 'failed'; error: string };

/** Runner → generator. */
export type RunnerMessage =
  | { type: 'start'; job: Job }
  | { type: 'close' }
  /** Coordinated rate jobs: start the next phase (the first is the warm-up), or end after the last one. */
  | { type: 'go' }
  | { type: 'stop' };
