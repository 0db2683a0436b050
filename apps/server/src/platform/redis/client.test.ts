import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { capturedLog } from '../../test-support/captured-log';
import { redisClient } from './client';

/** A port on this machine where nothing listens. */
async function closedPort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

afterEach(() => vi.restoreAllMocks());

describe('redisClient', () => {
  it('says once that Redis does not answer, however often it retries, and never prints a stack', async () => {
    const { lines, log } = capturedLog();
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
    const port = await closedPort();
    let attempts = 0;
    const redis = redisClient(
      `redis://:secret@127.0.0.1:${port}`,
      { retryStrategy: () => (++attempts < 4 ? 10 : null), maxRetriesPerRequest: 0 },
      log,
    );
    await new Promise<void>((resolve) => redis.once('end', () => resolve()));
    expect(attempts).toBe(4);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, redis: `127.0.0.1:${port}`, code: 'ECONNREFUSED' });
    expect(JSON.stringify(lines)).not.toContain('secret');
    expect(printed).not.toHaveBeenCalled();
    redis.disconnect();
  });
});
