// DESIGN §8's budgets as numbers: the one place to change when a budget moves (the table's budget column and
// every verdict are computed from these).
export const BUDGETS = {
  /** Saturation, Parley ÷ peer in deliveries/s, paired run by run. */
  saturation: { ws: 0.7, socketio: 1.5 },
  /** p99 delivery latency, 100 rooms × 10 members; nothing may be lost or duplicated. */
  latencyP99Ms: 25,
  /** p99 of two processes over Redis minus one process's, paired run by run. */
  redisExtraP99Ms: 5,
  idle: { connections: 20_000, kibEach: 16 },
  /** History page, Parley ÷ a bare Fastify route with the same JSON, requests/s paired run by run. */
  history: 0.5,
  /** Message search on 1,000,000 messages, p95 of the 200 queries through the HTTP route (issue 11). */
  searchP95Ms: { sqlite: 50, postgres: 80 },
  webInitialKiB: 150,
  webRowsMounted: 120,
} as const;
