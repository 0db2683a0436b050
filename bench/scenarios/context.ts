import type { Services } from '../targets';

// What every scenario gets from the runner: the services, the source addresses and the plan (full or quick).
export interface Plan {
  reps: number;
  /** Room layouts for saturation: members per room and how many rooms. */
  layouts: { size: number; rooms: number }[];
  /** Generator processes sharing a saturation run's rooms, so that no one generator's core is the ceiling. */
  generators: number;
  stepSeconds: number;
  /** The first part of each step, not counted: the queue settling at the new rate (ipc.ts, RateJob.phases). */
  settleSeconds: number;
  latencyWarmupSeconds: number;
  latencySeconds: number;
  idleGoal: number;
  /** Sockets on the process the restart scenario restarts. */
  restartGoal: number;
  churnSeconds: number;
  historySeconds: number;
  /** How long to wait, before each run, for someone else's burst of work to pass… */
  quietWaitSeconds: number;
  /** …and how long in all. */
  quietWaitBudgetSeconds: number;
}

export const fullPlan: Plan = {
  reps: 3,
  layouts: [
    { size: 10, rooms: 100 },
    { size: 100, rooms: 10 },
    // Two rooms, so that both generators carry one.
    { size: 1000, rooms: 2 },
  ],
  generators: 2,
  stepSeconds: 2.5,
  settleSeconds: 1,
  latencyWarmupSeconds: 2,
  latencySeconds: 6,
  idleGoal: 100_000,
  restartGoal: 20_000,
  churnSeconds: 3,
  historySeconds: 3,
  quietWaitSeconds: 15,
  quietWaitBudgetSeconds: 180,
};

export const quickPlan: Plan = {
  reps: 1,
  layouts: [
    { size: 10, rooms: 50 },
    { size: 100, rooms: 5 },
  ],
  generators: 2,
  stepSeconds: 1.5,
  settleSeconds: 0.5,
  latencyWarmupSeconds: 1,
  latencySeconds: 2,
  idleGoal: 2_000,
  restartGoal: 2_000,
  churnSeconds: 2,
  historySeconds: 2,
  quietWaitSeconds: 1,
  quietWaitBudgetSeconds: 10,
};

export interface BenchContext {
  quick: boolean;
  plan: Plan;
  services: Services;
  /** Loopback source addresses the generator spreads its connections over. */
  localAddresses: string[];
  log(line: string): void;
}
