// `npm start`'s first step: builds the web app and the server only when their sources changed since the last
// build (a content hash, so a checkout that changes nothing rebuilds nothing), and says so in one line instead of
// the build's hundred. A failed build prints its whole output.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** What the two builds read; their outputs and the tests' own folders are left out. */
const INPUTS = [
  'apps/web',
  'apps/server/src',
  'apps/server/build.mjs',
  'apps/server/package.json',
  'packages',
];
const ROOT_FILES = ['package-lock.json', 'tsconfig.base.json'];
const SKIP = new Set(['node_modules', 'dist', 'e2e', 'test', 'test-results', 'playwright-report']);
const OUTPUTS = ['apps/web/dist/index.html', 'apps/server/dist/main.js'];
const STAMP = path.join(root, 'node_modules/.cache/parley/build-inputs');

function* files(relative) {
  const full = path.join(root, relative);
  if (!existsSync(full)) return;
  if (!statSync(full).isDirectory()) {
    yield relative;
    return;
  }
  const entries = readdirSync(full, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    if (SKIP.has(entry.name)) continue;
    const child = path.posix.join(relative, entry.name);
    if (entry.isDirectory()) yield* files(child);
    else if (entry.isFile()) yield child;
  }
}

function inputsHash() {
  const hash = createHash('sha256');
  for (const file of [...ROOT_FILES, ...INPUTS].flatMap((input) => [...files(input)])) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(root, file)));
  }
  return hash.digest('hex');
}

const wanted = inputsHash();
const built = OUTPUTS.every((file) => existsSync(path.join(root, file)));
const last = existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : null;
if (built && last === wanted) {
  console.log('Parley is built and its sources have not changed: starting.');
} else {
  console.log('Building Parley (the web app and the server); this takes a minute the first time…');
  const started = Date.now();
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['run', 'build', '--silent'], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) {
    process.stdout.write(result.stdout ?? '');
    process.stderr.write(result.stderr ?? '');
    console.error('The build failed; the lines above say why.');
    process.exit(result.status ?? 1);
  }
  mkdirSync(path.dirname(STAMP), { recursive: true });
  writeFileSync(STAMP, `${wanted}\n`);
  console.log(`Built in ${Math.round((Date.now() - started) / 1000)} s.`);
}
