import { performance } from 'node:perf_hooks';
import * as hdr from 'hdr-histogram-js';
import { type Client, connectNotifications, openAll } from './clients';
import type { ChurnJob, ChurnResult, GeneratorMessage, IdleJob, IdleResult } from './ipc';
import { percentiles } from './rate-job';

// Connection jobs on the notification socket (the one every signed-in person keeps open).

/** Opens every member's socket and keeps them open; `close` ends them. */
export async function runIdleJob(job: IdleJob): Promise<{ result: IdleResult; close(): void }> {
  const start = performance.now();
  const { clients, failed, firstError } = await openAll<Client>(
    job.members.length,
    job.connectConcurrency,
    (i, settle) =>
      connectNotifications(
        job.kind,
        job.members[i] as (typeof job.members)[number],
        job.localAddresses[i % job.localAddresses.length],
        {
          ready: () => settle(true),
          chat: () => {},
          error: () => {},
          closed: (why) => settle(false, why),
        },
      ),
  );
  return {
    result: {
      mode: 'idle',
      connected: job.members.length - failed,
      failed,
      connectSeconds: (performance.now() - start) / 1000,
      firstError,
    },
    close() {
      for (const c of clients) c?.close();
    },
  };
}

/** `concurrency` workers each open a socket, wait for its first frame, close it, and go again. */
export async function runChurnJob(
  job: ChurnJob,
  report: (m: GeneratorMessage) => void,
): Promise<ChurnResult> {
  const setup = hdr.build({ numberOfSignificantValueDigits: 3 });
  const start = performance.now();
  const windowStart = start + job.warmupSeconds * 1000;
  const windowEnd = windowStart + job.seconds * 1000;
  let next = 0;
  let cycles = 0;
  let failed = 0;
  let firstError: string | null = null;
  let cpu = process.cpuUsage();
  setTimeout(() => {
    cpu = process.cpuUsage();
    report({ type: 'mark', label: 'window' });
  }, job.warmupSeconds * 1000);
  setTimeout(() => report({ type: 'mark', label: 'end' }), (job.warmupSeconds + job.seconds) * 1000);

  const cycle = () =>
    new Promise<void>((resolve) => {
      const i = next++;
      const member = job.members[i % job.members.length] as (typeof job.members)[number];
      const opened = performance.now();
      let readyAt = 0;
      let finished = false;
      const finish = (ok: boolean, why: string) => {
        if (finished) return;
        finished = true;
        const now = performance.now();
        if (!ok) {
          failed++;
          firstError ??= why;
        } else if (now >= windowStart && now < windowEnd) {
          cycles++;
          setup.recordValue(Math.max(1, Math.round((readyAt - opened) * 1000)));
        }
        resolve();
      };
      // A cycle counts once the socket was ready and its close handshake has completed.
      const client: Client = connectNotifications(
        job.kind,
        member,
        job.localAddresses[i % job.localAddresses.length],
        {
          ready() {
            if (readyAt) return;
            readyAt = performance.now();
            client.end();
          },
          chat: () => {},
          error: () => {},
          closed: (why) => finish(readyAt > 0, why),
        },
      );
    });

  const worker = async () => {
    while (performance.now() < windowEnd) await cycle();
  };
  await Promise.all(Array.from({ length: job.concurrency }, worker));
  const used = process.cpuUsage(cpu);
  return {
    mode: 'churn',
    cycles,
    failed,
    perSecond: cycles / job.seconds,
    setup: percentiles(setup),
    generatorCpu: (used.user + used.system) / 1e6 / job.seconds,
    firstError,
  };
}
