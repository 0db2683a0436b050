import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { performance } from 'node:perf_hooks';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** Seconds buckets for the fast paths (a statement, a publish, commit to socket): 0.1 ms to 2.5 s. */
const FAST_BUCKETS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
];
const BATCH_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200, 500];

export type SocketChannel = 'room' | 'notifications';

/**
 * Prometheus metrics of one Parley process (prom-client, a registry per app so tests can build several).
 * Modules are handed the narrow recording methods they need; nothing here knows a module. Served on /metrics
 * only when METRICS_TOKEN or METRICS_PORT is set (app.ts). Names follow Prometheus conventions: `parley_`
 * prefix, seconds, `_total` counters.
 */
export class Metrics {
  readonly registry = new Registry();

  private readonly messagesStored = new Counter({
    name: 'parley_messages_stored_total',
    help: 'Messages written to the database (resends not counted).',
    registers: [this.registry],
  });
  private readonly batchSize = new Histogram({
    name: 'parley_group_commit_batch_size',
    help: 'Messages per group-commit transaction.',
    buckets: BATCH_BUCKETS,
    registers: [this.registry],
  });
  private readonly commitToSocket = new Histogram({
    name: 'parley_commit_to_socket_seconds',
    help: "From a message's commit to its frame written to this process's sockets.",
    buckets: FAST_BUCKETS,
    registers: [this.registry],
  });
  private readonly deliveries = new Counter({
    name: 'parley_deliveries_written_total',
    help: 'Frames written to sockets (one per socket per frame).',
    registers: [this.registry],
  });
  private readonly statement = new Histogram({
    name: 'parley_db_statement_seconds',
    help: 'Database statement latency.',
    labelNames: ['outcome'],
    buckets: FAST_BUCKETS,
    registers: [this.registry],
  });
  private readonly redisPublish = new Histogram({
    name: 'parley_redis_publish_seconds',
    help: 'Redis PUBLISH round trip.',
    buckets: FAST_BUCKETS,
    registers: [this.registry],
  });
  private readonly redisSubscribe = new Histogram({
    name: 'parley_redis_subscribe_seconds',
    help: "From another process's publish to its arrival here (wall clocks of one machine or synced hosts).",
    buckets: FAST_BUCKETS,
    registers: [this.registry],
  });
  private readonly httpRequests = new Counter({
    name: 'parley_http_requests_total',
    help: 'HTTP requests by route pattern, method and status.',
    labelNames: ['route', 'method', 'status'],
    registers: [this.registry],
  });
  private readonly httpDuration = new Histogram({
    name: 'parley_http_request_seconds',
    help: 'HTTP request duration by route pattern.',
    labelNames: ['route', 'method'],
    buckets: FAST_BUCKETS,
    registers: [this.registry],
  });
  private readonly rateLimited = new Counter({
    name: 'parley_rate_limit_refusals_total',
    help: 'Requests and frames refused by a rate limit.',
    labelNames: ['via'],
    registers: [this.registry],
  });
  private readonly mails = new Counter({
    name: 'parley_mails_total',
    help: 'Mails handed to the mailer, by outcome.',
    labelNames: ['outcome'],
    registers: [this.registry],
  });
  private readonly pushes = new Counter({
    name: 'parley_pushes_total',
    help: 'Web Push notifications, by outcome.',
    labelNames: ['outcome'],
    registers: [this.registry],
  });

  constructor(openSockets: () => Record<SocketChannel, number>) {
    // Process figures, the event-loop delay among them (nodejs_eventloop_lag_*).
    collectDefaultMetrics({ register: this.registry, prefix: 'parley_', eventLoopMonitoringPrecision: 10 });
    new Gauge({
      name: 'parley_open_sockets',
      help: 'Open sockets of this process past authentication, by channel.',
      labelNames: ['channel'],
      registers: [this.registry],
      collect() {
        const counts = openSockets();
        for (const channel of Object.keys(counts) as SocketChannel[]) this.set({ channel }, counts[channel]);
      },
    });
  }

  /** A group commit wrote `stored` new messages (of `size` queued). */
  batchWritten(size: number, stored: number): void {
    this.batchSize.observe(size);
    this.messagesStored.inc(stored);
  }

  /** A committed message's frame has been handed to this process's sockets. */
  published(committedAt: number): void {
    this.commitToSocket.observe((performance.now() - committedAt) / 1000);
  }

  delivered(sockets: number): void {
    this.deliveries.inc(sockets);
  }

  statementTook(ms: number, failed: boolean): void {
    this.statement.observe({ outcome: failed ? 'error' : 'ok' }, ms / 1000);
  }

  redisPublished(ms: number): void {
    this.redisPublish.observe(ms / 1000);
  }

  /** `sentAt`: the publishing process's Date.now(). */
  redisReceived(sentAt: number): void {
    this.redisSubscribe.observe(Math.max(0, Date.now() - sentAt) / 1000);
  }

  httpAnswered(route: string, method: string, status: number, ms: number): void {
    this.httpRequests.inc({ route, method, status });
    this.httpDuration.observe({ route, method }, ms / 1000);
  }

  rateLimitRefused(via: 'http' | 'socket'): void {
    this.rateLimited.inc({ via });
  }

  mailSent(ok: boolean): void {
    this.mails.inc({ outcome: ok ? 'sent' : 'failed' });
  }

  pushSent(outcome: 'sent' | 'failed' | 'gone'): void {
    this.pushes.inc({ outcome });
  }

  /** The text exposition format, and its content type. */
  async expose(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }

  close(): void {
    this.registry.clear();
  }
}

/** METRICS_PORT: the metrics alone on a port of their own, without a token (bind it where only Prometheus reaches). */
export async function serveMetrics(metrics: Metrics, host: string, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found.\n');
      return;
    }
    metrics.expose().then(
      ({ body, contentType }) => res.writeHead(200, { 'content-type': contentType }).end(body),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics failed.\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}

/** A constant-time comparison of the Authorization header with `Bearer <token>`. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header ?? '');
  const wanted = Buffer.from(`Bearer ${token}`);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
