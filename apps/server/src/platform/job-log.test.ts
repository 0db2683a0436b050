import { describe, expect, it } from 'vitest';
import { capturedLog } from '../test-support/captured-log';
import { jobLog } from './job-log';

describe('jobLog', () => {
  it("tags a job's lines with its name, one id of its own and the request that caused it", () => {
    const { log, lines } = capturedLog();
    const job = jobLog(log, 'web push fan-out', 'req-7');
    job.warn({ status: 500 }, 'refused');
    job.error('failed');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toMatchObject({ job: 'web push fan-out', reqId: 'req-7' });
    expect(lines[0]?.job_id).toEqual(lines[1]?.job_id);
    expect(lines[0]?.job_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines[0]?.status).toBe(500);
  });

  it('gives each job its own id and leaves reqId out without a request', () => {
    const { log, lines } = capturedLog();
    jobLog(log, 'a').info('one');
    jobLog(log, 'b').info('two');
    expect(lines[0]?.job_id).not.toEqual(lines[1]?.job_id);
    expect(lines[0]).not.toHaveProperty('reqId');
  });
});
