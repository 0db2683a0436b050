import fs from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoDir } from './proc';

// Reads a V8 .cpuprofile (node --cpu-prof) and sums time per function (self and inclusive) and per area
// (a package, a Parley source folder, Node internals), mapping the server bundle back to its sources.
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount: number;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
}

export interface ProfileLine {
  name: string;
  where: string;
  selfMs: number;
  totalMs: number;
}
export interface ProfileSummary {
  totalMs: number;
  /** Everything but (idle). */
  busyMs: number;
  byFunction: ProfileLine[];
  byArea: { area: string; selfMs: number }[];
}

const maps = new Map<string, SourceMap | null>();
function sourceMapFor(url: string): SourceMap | null {
  if (!maps.has(url)) {
    let map: SourceMap | null = null;
    try {
      const file = fileURLToPath(url);
      map = new SourceMap(JSON.parse(fs.readFileSync(`${file}.map`, 'utf8')));
    } catch {
      map = null;
    }
    maps.set(url, map);
  }
  return maps.get(url) ?? null;
}

/** "file:line" in the original sources where a source map says so. */
function locate(frame: ProfileNode['callFrame']): string {
  if (!frame.url) return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
  if (frame.url.startsWith('node:')) return frame.url;
  const map = frame.url.startsWith('file:') ? sourceMapFor(frame.url) : null;
  const entry = map?.findEntry(frame.lineNumber, frame.columnNumber) as
    | { originalSource?: string; originalLine?: number }
    | undefined;
  const file = entry?.originalSource
    ? path.resolve(path.dirname(fileURLToPath(frame.url)), entry.originalSource.replace(/^file:\/\//, ''))
    : frame.url.startsWith('file:')
      ? fileURLToPath(frame.url)
      : frame.url;
  const line = entry?.originalLine !== undefined ? entry.originalLine + 1 : frame.lineNumber + 1;
  return `${path.relative(repoDir, file)}:${line}`;
}

function areaOf(where: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(where);
  if (pkg) return pkg[1] as string;
  if (where.startsWith('node:')) return 'node internals';
  const app = /^(apps\/server\/src\/(?:modules\/[^/]+|[^/]+)|packages\/[^/]+)/.exec(where);
  return app ? (app[1] as string) : where.startsWith('(') ? where : 'other';
}

export function summarise(file: string): ProfileSummary {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const totalSamples = profile.samples.length || 1;
  const msPerSample = (profile.endTime - profile.startTime) / 1000 / totalSamples;
  const key = (n: ProfileNode) => {
    const where = locate(n.callFrame);
    return { name: n.callFrame.functionName || '(anonymous)', where };
  };
  const lines = new Map<string, ProfileLine>();
  const areas = new Map<string, number>();
  const lineFor = (n: ProfileNode) => {
    const k = key(n);
    const id = `${k.name}@${k.where}`;
    let l = lines.get(id);
    if (!l) {
      l = { ...k, selfMs: 0, totalMs: 0 };
      lines.set(id, l);
    }
    return { id, l };
  };
  // Inclusive time counts a function once per stack, however deep it recurses.
  const walk = (id: number, onStack: Set<string>): number => {
    const n = byId.get(id) as ProfileNode;
    const { id: lid, l } = lineFor(n);
    const self = n.hitCount * msPerSample;
    l.selfMs += self;
    const area = areaOf(l.where);
    areas.set(area, (areas.get(area) ?? 0) + self);
    const fresh = !onStack.has(lid);
    if (fresh) onStack.add(lid);
    let total = self;
    for (const c of n.children ?? []) total += walk(c, onStack);
    if (fresh) {
      onStack.delete(lid);
      l.totalMs += total;
    }
    return total;
  };
  const root = profile.nodes[0];
  const totalMs = root ? walk(root.id, new Set()) : 0;
  return {
    totalMs,
    busyMs: totalMs - (areas.get('(idle)') ?? 0),
    byFunction: [...lines.values()],
    byArea: [...areas.entries()]
      .map(([area, selfMs]) => ({ area, selfMs }))
      .sort((a, b) => b.selfMs - a.selfMs),
  };
}
