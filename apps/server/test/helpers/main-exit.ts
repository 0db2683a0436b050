import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tsx = path.resolve(serverDir, '../../node_modules/.bin/tsx');

/**
 * Starts `src/main.ts` as a newcomer would (a process of its own, nothing but PATH and `env`) and waits for it to
 * end by itself: its exit code and everything it printed, stdout then stderr.
 */
export async function runMainToExit(env: Record<string, string>): Promise<{ code: number; out: string }> {
  return promisify(execFile)(tsx, ['src/main.ts'], {
    cwd: serverDir,
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    timeout: 120_000,
  }).then(
    (r) => ({ code: 0, out: r.stdout + r.stderr }),
    (err: { code?: number; stdout?: string; stderr?: string }) => ({
      code: err.code ?? -1,
      out: `${err.stdout ?? ''}${err.stderr ?? ''}`,
    }),
  );
}
