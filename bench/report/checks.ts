import { fmt } from '../lib/stats';

// What a budget row's verdict is made of: figures held against their bounds, and which side's CPU was at its
// ceiling while the figure was measured. Only numbers go in; the reason is the comparisons written out.
export type Verdict = 'PASS' | 'MISS' | 'n/a';

/** A process using this many cores or more is at its ceiling: Node runs JavaScript on one thread. */
export const AT_ONE_CORE = 0.9;

export interface Check {
  ok: boolean;
  /** The figure was not measured (no run, or no pair of runs), so the budget cannot be judged. */
  missing: boolean;
  text: string;
}

export interface Shown {
  /** What the figure is, for when it is missing: "ratio to bare ws". */
  name: string;
  digits: number;
  unit?: string;
  prefix?: string;
  suffix?: string;
}

/** A bound as DESIGN writes it: 0.5, 25, 20,000. */
export const bound = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 2 });

function compare(value: number, limit: number, ok: boolean, signs: [string, string], s: Shown): Check {
  if (!Number.isFinite(value)) return { ok: false, missing: true, text: `${s.name} not measured` };
  const unit = s.unit ?? '';
  const sign = ok ? signs[0] : signs[1];
  return {
    ok,
    missing: false,
    text: `${s.prefix ?? ''}${fmt(value, s.digits)}${unit} ${sign} ${bound(limit)}${unit}${s.suffix ?? ''}`,
  };
}

/** "0.97 × ≥ 0.7 × bare ws", "0.19 × < 0.5 ×": the sign says on which side of its floor the figure fell. */
export const atLeast = (value: number, floor: number, s: Shown) =>
  compare(value, floor, value >= floor, ['≥', '<'], s);

/** "p99 10.6 ms ≤ 25 ms", "p99 31.0 ms > 25 ms". */
export const atMost = (value: number, ceiling: number, s: Shown) =>
  compare(value, ceiling, value <= ceiling, ['≤', '>'], s);

/** Nothing lost or duplicated: "0 lost, 0 duplicated" (sockets the server closed early count as lost). */
export function nothingLost(lost: number, duplicated: number, closedEarly: number): Check {
  const closed = closedEarly ? `, ${fmt(closedEarly)} closed early` : '';
  return {
    ok: lost + duplicated + closedEarly === 0,
    missing: false,
    text: `${fmt(lost)} lost, ${fmt(duplicated)} duplicated${closed}`,
  };
}

/** A figure the run did not measure: the budget cannot be judged. */
export function notMeasured(name: string): Check {
  return { ok: false, missing: true, text: `${name} not measured` };
}

/**
 * MISS when a measured figure is out of its bound (whatever else is missing), n/a while a figure is missing and
 * the rest hold, PASS when every check holds; the reason lists them all.
 */
export function judge(checks: Check[], notes: string[] = []): { verdict: Verdict; reason: string } {
  const verdict = checks.some((c) => !c.ok && !c.missing)
    ? 'MISS'
    : checks.some((c) => c.missing)
      ? 'n/a'
      : 'PASS';
  return { verdict, reason: [...checks.map((c) => c.text), ...notes].filter(Boolean).join('; ') };
}

/** What else limitedBy can weigh: several generator processes, and the whole machine's cores. */
export interface LimitContext {
  /** Generator processes sharing the load (1 unless said). */
  generators?: number;
  /** The busiest generator process's cores: at one core, that one is the ceiling (the total when one process). */
  busiestGenerator?: number;
  /** Cores busy on the whole machine (server, generators and other work) and how many it has. */
  machine?: { busy: number; cores: number };
}

/**
 * Which side was at its ceiling while the figure was measured: "server" (a server process at one core),
 * "generator" (a generator process at one core), "both", "machine" (neither, but every core of the machine was
 * busy) or "neither", then the server's and the generator's cores ("–" where the run did not record them).
 * `processes` server processes share the server's figure.
 */
export function limitedBy(
  serverCores: number,
  generatorCores: number,
  processes = 1,
  more: LimitContext = {},
): string {
  const generators = more.generators ?? 1;
  const busiest = more.busiestGenerator ?? (generators === 1 ? generatorCores : Number.NaN);
  const server = serverCores / processes >= AT_ONE_CORE;
  const generator = busiest >= AT_ONE_CORE;
  const machineFull = more.machine ? more.machine.busy >= AT_ONE_CORE * more.machine.cores : false;
  const known = [serverCores, generatorCores].filter(Number.isFinite).length;
  const side =
    known === 0
      ? 'CPU not recorded'
      : server && generator
        ? 'both'
        : server
          ? 'server'
          : generator
            ? 'generator'
            : machineFull
              ? 'machine'
              : known === 2
                ? 'neither'
                : Number.isFinite(serverCores)
                  ? 'not the server'
                  : 'not the generator';
  const each = processes > 1 ? ` in ${processes} processes` : '';
  const gens = generators > 1 ? ` in ${generators} generators, busiest ${fmt(busiest, 2)}` : '';
  const machine = more.machine ? `; machine ${fmt(more.machine.busy, 2)} of ${more.machine.cores} cores` : '';
  return `${side} (${fmt(serverCores, 2)}${each} / ${fmt(generatorCores, 2)}${gens} cores${machine})`;
}
