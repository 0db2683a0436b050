import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const repo = path.resolve(import.meta.dirname, '..', '..', '..', '..');

/** Makes a person a site admin with the operator command (`npm run admin`), as on any server. */
export async function grantAdmin(username: string) {
  await promisify(execFile)('npm', ['run', '--silent', 'admin', '--', 'grant-admin', username], {
    cwd: repo,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: process.env.PARLEY_E2E_DATA_DIR,
      DATABASE_URL: '',
    },
    timeout: 60_000,
  });
}
