// DESIGN §8's budgets as numbers: the one place to change when a budget moves (the table's budget column and
// every verdict are computed from these).
export const BUDGETS = {
  /**
   * Saturation, Parley ÷ peer, paired run by run. Against the optimal ws peer (peers/bare-ws.ts) twice from the
   * same runs: in deliveries/s, and in deliveries per server CPU-second (the peer's CPU ms per 1,000 deliveries ÷
   * Parley's, the figure a saturated generator cannot distort). Socket.IO in deliveries/s.
   */
  saturation: { ws: 0.7, socketio: 1.5 },
  /** p99 delivery latency, 100 rooms × 10 members; nothing may be lost or duplicated. */
  latencyP99Ms: 25,
  /**
   * Link previews never delay delivery: p99 with a link in a fifth of the bodies (each a page of its own, fetched
   * and its picture thumbnailed) minus p99 without, paired run by run, within the noise of the plain runs — the
   * larger of this and their own p99's range.
   */
  linkPreviewNoiseMs: 1,
  /** p99 of two processes over Redis minus one process's, paired run by run. */
  redisExtraP99Ms: 5,
  /** Idle connections: 100,000 on one process (the bench raises its own open-files limit as root), ≤ 8 KiB RSS each. */
  idle: { connections: 100_000, kibEach: 8 },
  /**
   * A process restarted under 20,000 sockets whose clients reconnect as the web app does: every one back, at
   * ≥ 1,000 reconnections a second, nothing lost or doubled.
   */
  restart: { sockets: 20_000, reconnectsPerSecond: 1_000 },
  /**
   * History page, Parley ÷ a bare Fastify route in requests/s paired run by run: the route reading the same 50
   * rows from the same SQLite file with one prepared statement, and the route returning the same JSON as a constant.
   */
  history: { sqlite: 0.5, constant: 0.3 },
  /**
   * Catch-up after a reconnect: the server's CPU ms for a client that missed 1,000 messages to fetch them as the
   * web app does (one keyset query per page of 100), its loaded stretch read again included.
   */
  catchUpServerMs: 100,
  /** Message search on 1,000,000 messages, p95 of the 200 queries through the HTTP route. */
  searchP95Ms: { sqlite: 50, postgres: 80 },
  webInitialKiB: 150,
  webRowsMounted: 120,
} as const;
