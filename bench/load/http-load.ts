import autocannon from 'autocannon';

// autocannon in a process of its own: one warm-up pass, then the measured pass; prints nothing, answers over IPC.
export interface HttpJob {
  url: string;
  headers: Record<string, string>;
  connections: number;
  warmupSeconds: number;
  seconds: number;
}
export type HttpMessage =
  | { type: 'measuring' }
  | { type: 'result'; result: HttpResult }
  | { type: 'failed'; error: string };

export interface HttpResult {
  requestsPerSecond: number;
  latencyP50: number;
  latencyP99: number;
  errors: number;
  non2xx: number;
  total: number;
  /** autocannon's own CPU over the measured pass, in cores. */
  loadCpu: number;
}

process.on('message', async (job: HttpJob) => {
  try {
    const base = { url: job.url, headers: job.headers, connections: job.connections };
    await autocannon({ ...base, duration: job.warmupSeconds });
    process.send?.({ type: 'measuring' });
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const r = await autocannon({ ...base, duration: job.seconds });
    const cpu = process.cpuUsage(cpuBefore);
    const result: HttpResult = {
      requestsPerSecond: r.requests.total / job.seconds,
      latencyP50: r.latency.p50,
      latencyP99: r.latency.p99,
      errors: r.errors + r.timeouts,
      non2xx: r.non2xx,
      total: r.requests.total,
      loadCpu: (cpu.user + cpu.system) / 1000 / (performance.now() - started),
    };
    process.send?.({ type: 'result', result });
  } catch (err) {
    process.send?.({ type: 'failed', error: String(err) });
  }
  setTimeout(() => process.exit(0), 100);
});
