import fs from 'node:fs';
import os from 'node:os';

// The machine a run happened on, and how busy it was with work that was not ours.
export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  os: string;
  fdLimit: string;
}

/**
 * Where a run happened when it was not this machine: `npm run bench:vm` sets BENCH_VM to its accelerator, and the
 * machine it starts is described from inside (its kernel, CPUs and memory).
 */
export function virtualMachine(): string | null {
  const accel = process.env.BENCH_VM;
  if (!accel) return null;
  const cpu = accel === 'kvm' ? 'KVM' : 'an emulated CPU (TCG: its speeds are not this machine’s)';
  return `a virtual machine of its own (\`npm run bench:vm\`: QEMU, ${cpu}, ${os.cpus().length} CPUs, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Linux ${os.release()})`;
}

export function describeMachine(fdLimit: number): Machine {
  return {
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    cores: os.cpus().length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    fdLimit: String(fdLimit),
  };
}

/** CPU seconds all cores have spent busy since boot (/proc/stat: everything but idle and iowait). */
export function machineBusySeconds(): number {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const [, ...fields] = line.trim().split(/\s+/);
  const n = fields.map(Number);
  const idle = (n[3] ?? 0) + (n[4] ?? 0);
  return (n.reduce((a, b) => a + b, 0) - idle) / 100;
}

/**
 * Waits (at most `maxSeconds`) for a second in which the machine's busy cores drop under `threshold`, and
 * returns the last reading: someone else's burst passes before a run starts; longer load is recorded in the
 * runs' background figures rather than waited out.
 */
export async function waitForQuiet(maxSeconds: number, threshold = 0.35): Promise<number> {
  const deadline = Date.now() + maxSeconds * 1000;
  let busy = 0;
  do {
    const before = machineBusySeconds();
    await new Promise((r) => setTimeout(r, 1000));
    busy = machineBusySeconds() - before;
    if (busy < threshold) break;
  } while (Date.now() < deadline);
  return busy;
}
