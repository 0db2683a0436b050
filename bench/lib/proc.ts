import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// Processes under test: start, wait, stop, and read their CPU time, RSS and open files from /proc.
export const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const repoDir = path.resolve(benchDir, '..');

/** Node flags for a process under test: GC on demand and the event-loop-delay probe (lib/eld-preload.mjs). */
export const probeFlags = [
  '--expose-gc',
  '--import',
  pathToFileURL(path.join(benchDir, 'lib/eld-preload.mjs')).href,
];
export const tsxFlags = ['--import', 'tsx'];

const CLOCK_TICKS = 100; // sysconf(_SC_CLK_TCK) on Linux

/** utime + stime of a process in seconds. */
export function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name is in parentheses and may hold spaces: fields are counted after its closing one.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

export function rssBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /VmRSS:\s+(\d+) kB/.exec(status);
  return m ? Number(m[1]) * 1024 : 0;
}

export function openFds(pid: number): number {
  return fs.readdirSync(`/proc/${pid}/fd`).length;
}

export function fdLimit(pid: number): number {
  const limits = fs.readFileSync(`/proc/${pid}/limits`, 'utf8');
  const m = /Max open files\s+(\d+)\s+(\d+)/.exec(limits);
  return m ? Number(m[1]) : 1024;
}

/**
 * Raises this process's open-files limit, soft and hard, to `n` with util-linux's `prlimit` (root, or
 * CAP_SYS_RESOURCE, may raise the hard limit), so the servers and generators it starts inherit it: 100,000 idle
 * connections need 100,000 descriptors in the server and as many across the generators. Returns the limit now
 * in force; where it cannot be raised, it stays as it was and the idle row says what it allowed.
 */
export function raiseFileLimit(n: number): number {
  if (fdLimit(process.pid) >= n) return fdLimit(process.pid);
  spawnSync('prlimit', ['--pid', String(process.pid), `--nofile=${n}:${n}`], { stdio: 'ignore' });
  return fdLimit(process.pid);
}

/** A port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface Managed {
  name: string;
  child: ChildProcess;
  pid: number;
  /** The last lines the process wrote, for error messages. */
  tail(): string;
  stop(): Promise<void>;
}

/** Starts a process (`process.execPath` for Node) with its last 40 lines of output kept; BENCH_VERBOSE prints them. */
export function startProcess(name: string, command: string, args: string[], env: NodeJS.ProcessEnv): Managed {
  const child = spawn(command, args, {
    cwd: repoDir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    const text = chunk.toString();
    if (process.env.BENCH_VERBOSE) process.stderr.write(`[${name}] ${text}`);
    lines.push(...text.split('\n').filter(Boolean));
    if (lines.length > 40) lines.splice(0, lines.length - 40);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  if (child.pid === undefined) throw new Error(`${name} did not start`);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    name,
    child,
    pid: child.pid,
    tail: () => lines.join('\n'),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Polls `url` until it answers 2xx (the server is listening), or throws with the process's last output. In a
 * virtual machine with an emulated CPU (`npm run bench:vm`), a start takes tens of times as long.
 */
export async function waitForHttp(
  url: string,
  proc: Managed,
  timeoutMs = process.env.BENCH_VM === 'tcg' ? 600_000 : 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null) throw new Error(`${proc.name} exited early:\n${proc.tail()}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${proc.name} did not answer ${url} within ${timeoutMs} ms:\n${proc.tail()}`);
}
