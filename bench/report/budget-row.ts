import { fmtSpread, type Spread, spread } from '../lib/stats';
import type { PageServer } from '../scenarios/page-load';
import type { Verdict } from './checks';

// One row of the budget table, and the small pieces every row builder writes its cells with.
export interface BudgetRow {
  what: string;
  budget: string;
  parley: string;
  ws: string;
  socketio: string;
  /** The naive ws peer, for reference (saturation rows only). */
  naive?: string;
  ratio: string;
  verdict: Verdict;
  /** The comparisons behind the verdict, from the numbers alone. */
  reason: string;
  /** Which side's CPU was at its ceiling while the figure was measured (where the run records it). */
  limitedBy: string;
}

/** The servers of the budget table's columns. */
export const COLUMNS = {
  parley: 'Parley',
  ws: 'bare ws',
  socketio: 'Socket.IO',
  'naive-ws': 'naive ws',
  'ws-sqlite': 'ws + SQLite',
} as const;
export const PEERS = ['parley', 'ws', 'socketio'] as const;
/** The servers of the HTTP page scenarios (history, channels). */
export const pageServerLabel: Record<PageServer, string> = {
  parley: 'Parley (SQLite)',
  fastify: 'bare Fastify (constant JSON)',
  'fastify-sqlite': 'bare Fastify + SQLite',
};

/** A ratio's figure and bound: "0.97 ×". */
export const times = (digits: number) => ({ digits, unit: ' ×' });
export const ratioText = (s: Spread) => (s.n ? `${fmtSpread(s, 2)}×` : '–');
export const leftOut = (n: number) => (n ? `${n} contended run${n > 1 ? 's' : ''} left out` : '');
export const median = (xs: number[]) => spread(xs).median;
/** The cells a row without peers leaves blank. */
export const empty = { ws: '', socketio: '', ratio: '', limitedBy: '' };
