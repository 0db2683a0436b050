import { fmt } from '../lib/stats';
import { CONTENDED_CORES } from './runs';

// What every table of the Markdown report is made of.

export const table = (head: string[], rows: (string | number)[][]) =>
  [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.map((c) => String(c).replaceAll('|', '\\|')).join(' | ')} |`),
  ].join('\n');

/** A figure that may be missing. */
export const opt = (x: number | null, d = 1) => (x === null ? '–' : fmt(x, d));

/** Cores of other work during a run, marked † when the run counts as contended. */
export const contended = (cores: number) => `${fmt(cores, 2)}${cores > CONTENDED_CORES ? ' †' : ''}`;
