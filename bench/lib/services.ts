import net from 'node:net';
import pg from 'pg';
import { freePort, type Managed, sleep, startProcess } from './proc';

// PostgreSQL (shared, each run in a schema of its own) and a private Redis for the multi-process runs.

export async function checkPostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.end();
}

const pong = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => s.write('PING\r\n'));
    s.once('data', (d) => {
      s.destroy();
      resolve(d.toString().startsWith('+PONG'));
    });
    s.once('error', () => resolve(false));
  });

/** A private redis-server on a free loopback port (BENCH_REDIS_URL uses an existing one instead), so the
 *  bench never meets another user's keys or pub/sub channels. */
export async function startRedis(): Promise<{ url: string; proc: Managed | null }> {
  if (process.env.BENCH_REDIS_URL) return { url: process.env.BENCH_REDIS_URL, proc: null };
  const port = await freePort();
  const proc = startProcess(
    'redis',
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { PATH: process.env.PATH },
  );
  for (let i = 0; i < 100; i++) {
    if (await pong(port)) return { url: `redis://127.0.0.1:${port}`, proc };
    await sleep(50);
  }
  await proc.stop();
  throw new Error(`redis-server did not start:\n${proc.tail()}`);
}

/** Loopback source addresses that can be bound here (127.0.0.2 …), else 127.0.0.1 alone. */
export async function sourceAddresses(): Promise<string[]> {
  const usable: string[] = [];
  // Eight source addresses: each has its own ~28,000 ephemeral ports to the server's one port, room for 100,000
  // idle connections and the churn beside them.
  for (let i = 2; i <= 9; i++) {
    const a = `127.0.0.${i}`;
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.createServer().once('error', () => resolve(false));
      s.listen(0, a, () => s.close(() => resolve(true)));
    });
    if (ok) usable.push(a);
  }
  return usable.length ? usable : ['127.0.0.1'];
}

export const defaultPostgresUrl = () =>
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
