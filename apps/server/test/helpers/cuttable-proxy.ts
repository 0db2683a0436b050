import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a real server (PostgreSQL, Redis) that a test can cut, as a restart, a failover or a
 * network fault does to the connections of a process: `cut()` resets every open connection and every new one
 * until `restore()`. The machine's shared servers keep running for the other tests.
 */
export interface CuttableProxy {
  /** The proxy's port on 127.0.0.1; point the app's URL at it. */
  port: number;
  /** Resets every connection through the proxy and refuses new ones until restore(). */
  cut(): void;
  restore(): void;
  /** Connections open through the proxy now. */
  open(): number;
  close(): Promise<void>;
}

export async function startCuttableProxy(target: { host: string; port: number }): Promise<CuttableProxy> {
  const pairs = new Set<[Socket, Socket]>();
  let down = false;
  const server: Server = createServer((client) => {
    if (down) {
      client.resetAndDestroy();
      return;
    }
    const upstream = createConnection(target);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the proxy has no port');
  return {
    port: address.port,
    cut() {
      down = true;
      for (const [client, upstream] of pairs) {
        client.resetAndDestroy();
        upstream.destroy();
      }
      pairs.clear();
    },
    restore() {
      down = false;
    },
    open: () => pairs.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const [client, upstream] of pairs) {
          client.destroy();
          upstream.destroy();
        }
        server.close(() => resolve());
      }),
  };
}

/** The URL with its host and port replaced by the proxy's (postgres://…, redis://…). */
export function throughProxy(url: string, proxy: CuttableProxy): string {
  const parsed = new URL(url);
  parsed.hostname = '127.0.0.1';
  parsed.port = String(proxy.port);
  return parsed.toString();
}
