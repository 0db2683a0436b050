import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { repoDir } from '../lib/proc';

// DESIGN §8's web budget the server bench can read cheaply: the JavaScript the built index.html loads before
// anything else (its module script and modulepreloads), gzipped. It reads the existing apps/web/dist, never builds.
export interface WebSize {
  files: string[];
  gzipKiB: number;
  builtAt: string;
}

export function initialJs(): WebSize | null {
  const dist = path.join(repoDir, 'apps/web/dist');
  const indexFile = path.join(dist, 'index.html');
  if (!fs.existsSync(indexFile)) return null;
  const html = fs.readFileSync(indexFile, 'utf8');
  const refs = [
    ...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g),
    ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
  ].map((m) => m[1] as string);
  const files = [...new Set(refs)].filter((f) => f.startsWith('/'));
  let bytes = 0;
  for (const f of files) bytes += zlib.gzipSync(fs.readFileSync(path.join(dist, f))).length;
  return { files, gzipKiB: bytes / 1024, builtAt: fs.statSync(indexFile).mtime.toISOString() };
}
