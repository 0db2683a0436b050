import { describe, expect, it } from 'vitest';
import { capturedLog } from '../test-support/captured-log';
import { DatabaseUnavailableError } from './errors';
import { PeriodicTask } from './periodic';

// A background chore outlives its failed runs: a bug is logged as an error each time, a database out of reach
// (a PostgreSQL restart, told once by the database layer) is not, and the next run tries again.

const reset = () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });

describe('PeriodicTask', () => {
  it('logs a failed run as an error and runs again', async () => {
    const { log, lines } = capturedLog();
    let runs = 0;
    const task = new PeriodicTask(
      async () => {
        runs += 1;
        if (runs === 1) throw new TypeError('a bug');
      },
      60_000,
      log,
      'chore',
    );
    await task.runOnce();
    await task.runOnce();
    expect(runs).toBe(2);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 50, msg: 'chore failed', job: 'chore' });
  });

  it('keeps quiet about runs that failed because the database is out of reach, and runs again', async () => {
    const { log, lines } = capturedLog();
    let runs = 0;
    const task = new PeriodicTask(
      async () => {
        runs += 1;
        if (runs === 1) throw new DatabaseUnavailableError(reset());
        if (runs === 2) throw reset();
      },
      60_000,
      log,
      'chore',
    );
    for (let i = 0; i < 3; i++) await task.runOnce();
    expect(runs).toBe(3);
    expect(lines).toEqual([]);
  });
});
