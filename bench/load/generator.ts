import { runChurnJob, runIdleJob } from './connection-jobs';
import type { GeneratorMessage, RunnerMessage } from './ipc';
import { runRateJob } from './rate-job';
import { runRestartJob } from './restart-job';

// The load generator: a process of its own (forked by the runner), so its work never shares an event loop
// with the runner's bookkeeping. It takes one job, reports marks and a result over IPC, then exits.
const report = (m: GeneratorMessage) => process.send?.(m);

// A coordinated rate job waits for the runner's go or stop before each phase; a restart job for its stop.
const commands: ('go' | 'stop')[] = [];
let waiting: ((c: 'go' | 'stop') => void) | null = null;
process.on('message', (m: RunnerMessage) => {
  if (m.type !== 'go' && m.type !== 'stop') return;
  if (waiting) {
    const w = waiting;
    waiting = null;
    w(m.type);
  } else commands.push(m.type);
});
const next = () =>
  new Promise<'go' | 'stop'>((resolve) => {
    const queued = commands.shift();
    if (queued) resolve(queued);
    else waiting = resolve;
  });

process.on('message', async (m: RunnerMessage) => {
  if (m.type !== 'start') return;
  const { job } = m;
  try {
    if (job.mode === 'rate')
      report({ type: 'result', result: await runRateJob(job, report, job.coordinated ? next : undefined) });
    else if (job.mode === 'churn') report({ type: 'result', result: await runChurnJob(job, report) });
    else if (job.mode === 'restart')
      report({
        type: 'result',
        result: await runRestartJob(
          job,
          report,
          next().then(() => {}),
        ),
      });
    else {
      const idle = await runIdleJob(job);
      report({ type: 'result', result: idle.result });
      await new Promise<void>((resolve) =>
        process.on('message', (next: RunnerMessage) => next.type === 'close' && resolve()),
      );
      idle.close();
    }
  } catch (err) {
    report({ type: 'failed', error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
  // Let the last IPC message leave before exiting.
  setTimeout(() => process.exit(0), 200);
});
