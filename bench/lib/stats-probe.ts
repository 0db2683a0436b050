import fs from 'node:fs';
import { sleep } from './proc';

// The runner's side of lib/eld-preload.mjs: ask a server process for its event-loop delay or a GC.
export interface EventLoopDelay {
  samples: number;
  min: number;
  mean: number;
  p50: number;
  p99: number;
  max: number;
}
export interface ProbeStats {
  command: string;
  eld: EventLoopDelay;
  memory: NodeJS.MemoryUsage;
}

export async function probe(
  pid: number,
  file: string,
  command: 'eld' | 'gc' | `snapshot ${string}`,
): Promise<ProbeStats | null> {
  fs.rmSync(file, { force: true });
  fs.writeFileSync(`${file}.cmd`, command);
  try {
    process.kill(pid, 'SIGUSR2');
  } catch {
    return null;
  }
  // A heap snapshot of a big heap takes a while; so does a GC of 100,000 sockets' objects on an emulated CPU
  // (`npm run bench:vm`), which 5 s did not leave time for.
  const waits = command.startsWith('snapshot') || process.env.BENCH_VM === 'tcg' ? 12_000 : 500;
  for (let i = 0; i < waits; i++) {
    if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as ProbeStats;
    await sleep(10);
  }
  return null;
}
