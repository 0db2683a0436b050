import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMainToExit } from '../helpers/main-exit';

// A newcomer whose port 8000 is taken reads one plain sentence, not a raw EADDRINUSE stack.

describe('starting on a port that is in use', () => {
  it('says which port and what to do, and exits 1', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-port-'));
    try {
      const run = await runMainToExit({ NODE_ENV: 'test', DATA_DIR: dataDir, PORT: String(port) });
      expect(run.code).toBe(1);
      expect(run.out).toContain(`Port ${port} is in use; set PORT to another port`);
      expect(run.out).not.toMatch(/EADDRINUSE|\n\s+at /);
    } finally {
      taken.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
    // A process of its own, its TypeScript compiled as it starts: on a busy 2-core machine that took over 30 s.
  }, 150_000);
});
