import { describe, expect, it } from 'vitest';
import { DatabaseUnavailableError } from '../platform/errors';
import { capturedLog } from '../test-support/captured-log';
import { DatabaseOutage } from './database';

// A PostgreSQL outage as one process tells it: one warning when it starts, one line when it ends (how long, how
// many statements were refused meanwhile), whatever the traffic in between.

const reset = () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });

describe('DatabaseOutage', () => {
  it('tells an outage in two lines, however many connections and statements fail', () => {
    const { log, lines } = capturedLog();
    const outage = new DatabaseOutage(log);
    outage.back();
    expect(lines).toEqual([]);

    outage.lost(reset());
    outage.lost(new Error('Connection terminated unexpectedly'));
    const refusals = Array.from({ length: 50 }, () => outage.refuse(reset()));
    expect(outage.ongoing).toBe(true);
    for (const r of refusals) expect(r).toBeInstanceOf(DatabaseUnavailableError);
    outage.back();
    outage.back();

    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      level: 40,
      database: 'postgres',
      code: 'ECONNRESET',
      msg: 'PostgreSQL does not answer; requests get 503 until it does',
    });
    expect(lines[1]).toMatchObject({ level: 30, refused: 50, msg: 'PostgreSQL answers again' });
    expect(lines[1]?.downForMs).toEqual(expect.any(Number));
    expect(outage.ongoing).toBe(false);
  });

  it('tells the next outage afresh, and names an error without a code by its message', () => {
    const { log, lines } = capturedLog();
    const outage = new DatabaseOutage(log);
    outage.refuse(reset());
    outage.back();
    outage.lost(new Error('Connection terminated unexpectedly'));
    outage.back();
    expect(lines.map((l) => [l.level, l.code ?? l.refused])).toEqual([
      [40, 'ECONNRESET'],
      [30, 1],
      [40, 'Connection terminated unexpectedly'],
      [30, 0],
    ]);
  });

  it('keeps an error already mapped as it is', () => {
    const outage = new DatabaseOutage();
    const err = new DatabaseUnavailableError(reset());
    expect(outage.refuse(err)).toBe(err);
  });
});
