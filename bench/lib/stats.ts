// Small statistics for repeated runs: the median as the figure, min–max as its spread.
export interface Spread {
  median: number;
  min: number;
  max: number;
  n: number;
}

export function spread(values: number[]): Spread {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, n: 0 };
  const mid = Math.floor(v.length / 2);
  const median = v.length % 2 ? (v[mid] as number) : ((v[mid - 1] as number) + (v[mid] as number)) / 2;
  return { median, min: v[0] as number, max: v[v.length - 1] as number, n: v.length };
}

/** Ratios of paired runs (run i of a against run i of b). */
export function pairedRatios(a: number[], b: number[]): Spread {
  return spread(a.map((x, i) => x / (b[i] ?? Number.NaN)));
}

export function pairedDiffs(a: number[], b: number[]): Spread {
  return spread(a.map((x, i) => x - (b[i] ?? Number.NaN)));
}

/** 12345.6 → "12,346"; small numbers keep `digits` decimals. */
export function fmt(x: number, digits = 0): string {
  if (!Number.isFinite(x)) return '–';
  return x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function fmtSpread(s: Spread, digits = 0, unit = ''): string {
  if (s.n === 0) return '–';
  if (s.n === 1) return `${fmt(s.median, digits)}${unit}`;
  return `${fmt(s.median, digits)}${unit} (${fmt(s.min, digits)}–${fmt(s.max, digits)})`;
}
