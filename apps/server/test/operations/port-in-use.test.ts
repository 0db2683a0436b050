import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// A newcomer whose port 8000 is taken reads one plain sentence, not a raw EADDRINUSE stack (issue 14).
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tsx = path.resolve(serverDir, '../../node_modules/.bin/tsx');

describe('starting on a port that is in use', () => {
  it('says which port and what to do, and exits 1', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-port-'));
    try {
      const run = await promisify(execFile)(tsx, ['src/main.ts'], {
        cwd: serverDir,
        env: {
          PATH: process.env.PATH,
          NODE_ENV: 'test',
          LOG_LEVEL: 'info',
          DATA_DIR: dataDir,
          HOST: '127.0.0.1',
          PORT: String(port),
        },
        timeout: 60_000,
      }).then(
        (r) => ({ code: 0, out: r.stdout + r.stderr }),
        (err: { code?: number; stdout?: string; stderr?: string }) => ({
          code: err.code ?? -1,
          out: `${err.stdout ?? ''}${err.stderr ?? ''}`,
        }),
      );
      expect(run.code).toBe(1);
      expect(run.out).toContain(`Port ${port} is in use; set PORT to another port`);
      expect(run.out).not.toMatch(/EADDRINUSE|\n\s+at /);
    } finally {
      taken.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
