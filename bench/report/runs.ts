import { pairedRatios } from '../lib/stats';
import type { Variant } from '../targets';

// Which runs a budget figure is taken from: one server's, paired with another's by repetition, and without the
// runs other work disturbed.

/** A run during which other work kept more than this many cores busy is "contended" (marked † in the tables). */
export const CONTENDED_CORES = 0.5;

interface Run {
  variant: Variant;
  rep: number;
}

export const values = <T extends { variant: Variant }>(runs: T[], variant: Variant, pick: (r: T) => number) =>
  runs.filter((r) => r.variant === variant).map(pick);

function byRep<T extends Run>(runs: T[], variant: Variant, pick: (r: T) => number) {
  const out = new Map<number, number>();
  for (const r of runs) if (r.variant === variant) out.set(r.rep, pick(r));
  return out;
}

/** Paired by repetition: only reps both variants completed. */
export function paired<T extends Run>(runs: T[], a: Variant, b: Variant, pick: (r: T) => number) {
  const x = byRep(runs, a, pick);
  const y = byRep(runs, b, pick);
  const reps = [...x.keys()].filter((k) => y.has(k)).sort((p, q) => p - q);
  return { a: reps.map((k) => x.get(k) as number), b: reps.map((k) => y.get(k) as number) };
}

export function pairedRatio<T extends Run>(runs: T[], a: Variant, b: Variant, pick: (r: T) => number) {
  const p = paired(runs, a, b, pick);
  return pairedRatios(p.a, p.b);
}

/**
 * The uncontended runs, as long as every variant kept at least one; otherwise all. PostgreSQL's and Redis's work
 * counts as other work, so their variants are never left out. `left` is how many runs were left out.
 */
export function quietRuns<T extends { variant: Variant; background: number }>(runs: T[]) {
  const quiet = runs.filter((r) => r.variant.startsWith('parley-pg') || r.background <= CONTENDED_CORES);
  const kept = [...new Set(runs.map((r) => r.variant))].every((v) => quiet.some((r) => r.variant === v));
  const used = kept ? quiet : runs;
  return { runs: used, left: runs.length - used.length };
}
