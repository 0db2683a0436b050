import net from 'node:net';

// Redis's MONITOR read from a plain connection: every command any client sends, as its arguments and where it
// came from ('lua' inside a script). ioredis's own monitor mode could take a command's line for a reply when
// another client's command arrived together with MONITOR's OK ("Command queue state error", a failed CI run).

export interface RedisMonitor {
  stop(): void;
}

/** One MONITOR line (`+1795683620.532659 [0 127.0.0.1:40570] "get" "key"`): its source and arguments. */
export function parseMonitorLine(line: string): { source: string; args: string[] } | null {
  const match = /^\+\d+\.\d+ \[\d+ ([^\]]+)\] (.*)$/.exec(line);
  if (!match) return null;
  const args = [...(match[2] ?? '').matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) =>
    (m[1] ?? '').replace(/\\x([0-9a-f]{2})|\\(.)/gi, (_, hex: string | undefined, ch: string) =>
      hex ? String.fromCharCode(Number.parseInt(hex, 16)) : ({ n: '\n', r: '\r', t: '\t' }[ch] ?? ch),
    ),
  );
  return { source: match[1] ?? '', args };
}

/** Starts monitoring; resolves once Redis has said OK, so every command sent after is seen. */
export function monitorRedis(
  url: string,
  onCommand: (args: string[], source: string) => void,
): Promise<RedisMonitor> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port) || 6379, hostname);
    let buffered = '';
    let ready = false;
    socket.setEncoding('utf8');
    socket.once('error', reject);
    socket.on('connect', () => socket.write('MONITOR\r\n'));
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      let end = buffered.indexOf('\r\n');
      while (end >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        end = buffered.indexOf('\r\n');
        if (!ready) {
          if (line !== '+OK') return reject(new Error(`MONITOR answered ${line}`));
          ready = true;
          resolve({ stop: () => socket.destroy() });
          continue;
        }
        const command = parseMonitorLine(line);
        if (command) onCommand(command.args, command.source);
      }
    });
  });
}
