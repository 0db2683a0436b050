import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { benchDir, repoDir } from './lib/proc';

// `npm run bench:vm -- [npm run bench's options]`: runs the bench inside a virtual machine started here, for the
// rows this sandbox's own limits keep from being shown. 100,000 sockets need 100,000 descriptors in the server
// and as many across the generators; the hard open-files limit here is 20,000 and root lacks CAP_SYS_RESOURCE
// to raise it. In a machine of its own the bench is root of its own kernel and raises it (run.ts).
//
// The machine is QEMU with Debian's kernel and a small initramfs (busybox and the virtio and 9p modules). It
// mounts this machine's root file system over 9p, so it runs the same Node, node_modules and built bundles,
// with tmpfs on /tmp (the bench's databases), and writes its results into this checkout's bench/results.
// KVM's device exists here but a kernel does not boot under it (nested), so by default the CPU is emulated
// (TCG): speeds measured inside are not this machine's and the runner says so; memory per connection and
// whether every connection and message survives are the same code doing the same work.
//
// BENCH_VM_MEMORY (default 12G), BENCH_VM_CPUS (2), BENCH_VM_ACCEL (tcg; kvm where it boots).

const cacheDir = path.join(benchDir, '.cache/vm');
const memory = process.env.BENCH_VM_MEMORY ?? '12G';
const cpus = process.env.BENCH_VM_CPUS ?? '2';
const accel = process.env.BENCH_VM_ACCEL ?? 'tcg';
const EXIT_MARK = 'PARLEY_VM_EXIT';

const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

function run(cmd: string, args: string[], cwd = cacheDir) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** QEMU and a static busybox from Debian's packages, installed when missing (as .ci/run installs its own). */
function ensureTools() {
  const missing = [
    has('qemu-system-x86_64') ? null : 'qemu-system-x86',
    fs.existsSync('/bin/busybox') ? null : 'busybox-static',
  ].filter((p): p is string => p !== null);
  if (missing.length === 0) return;
  console.error(`installing ${missing.join(', ')}`);
  run('apt-get', ['install', '-y', '--no-install-recommends', ...missing], repoDir);
}

/** Debian's current kernel package, unpacked into the cache: its vmlinuz and its modules. */
function ensureKernel(): { vmlinuz: string; modules: string } {
  const root = path.join(cacheDir, 'linux');
  if (!fs.existsSync(root)) {
    const pkg = /Depends: (linux-image-\S+)/.exec(run('apt-cache', ['depends', 'linux-image-amd64']))?.[1];
    if (!pkg) throw new Error('no linux-image package found for linux-image-amd64');
    console.error(`downloading ${pkg}`);
    run('apt-get', ['download', pkg]);
    const deb = fs.readdirSync(cacheDir).find((f) => f.startsWith(pkg) && f.endsWith('.deb'));
    if (!deb) throw new Error(`apt-get download left no ${pkg} package`);
    run('dpkg-deb', ['-x', deb, root]);
    fs.rmSync(path.join(cacheDir, deb));
  }
  const boot = path.join(root, 'boot');
  const vmlinuz = fs.readdirSync(boot).find((f) => f.startsWith('vmlinuz-'));
  if (!vmlinuz) throw new Error(`no kernel in ${boot}`);
  return {
    vmlinuz: path.join(boot, vmlinuz),
    modules: path.join(root, 'lib/modules', vmlinuz.slice('vmlinuz-'.length)),
  };
}

/** The modules that mount the host over virtio 9p, each after those it depends on (their `depends=`). */
function moduleOrder(modulesDir: string): string[] {
  const byName = new Map<string, string>();
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ko')) byName.set(e.name.slice(0, -3), p);
    }
  };
  for (const sub of [
    'kernel/drivers/virtio',
    'kernel/net/9p',
    'kernel/fs/9p',
    'kernel/fs/netfs',
    'kernel/fs/fscache',
  ])
    walk(path.join(modulesDir, sub));
  const ordered: string[] = [];
  const visit = (name: string) => {
    const file = byName.get(name);
    if (!file || ordered.includes(file)) return;
    const depends = /depends=([^\0]*)/.exec(fs.readFileSync(file, 'latin1'))?.[1] ?? '';
    for (const dep of depends.split(',').filter(Boolean)) visit(dep);
    ordered.push(file);
  };
  for (const root of ['virtio_pci', '9pnet_virtio', '9p']) visit(root);
  return ordered;
}

/**
 * The host's transparent huge pages setting (`madvise` here; Debian's kernel says `always`): with `always`, V8's
 * heap may be backed by 2 MiB pages and the RSS per connection is not the host's (10,000 connections read 7.6 KiB
 * each with it, where the host reads 4.6–5.5 at 19,944).
 */
function hostHugePages(): string {
  const file = '/sys/kernel/mm/transparent_hugepage/enabled';
  const chosen = fs.existsSync(file) ? /\[(\w+)\]/.exec(fs.readFileSync(file, 'utf8'))?.[1] : undefined;
  return chosen ?? 'madvise';
}

/** The machine's first process: mounts the host at /host, makes room for 100,000 sockets, runs the job. */
const initScript = (job: string) => `#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
for m in $(cat /mods/order); do insmod /mods/$m || echo "insmod $m failed"; done
mount -t 9p -o trans=virtio,version=9p2000.L,msize=1048576,cache=loose host /host || echo "mounting the host failed"
for d in proc sys dev; do mount --bind /$d /host/$d; done
mount -t tmpfs tmp /host/tmp; mount -t tmpfs run /host/run
mkdir -p /host/dev/shm /host/dev/pts; mount -t tmpfs shm /host/dev/shm; mount -t devpts pts /host/dev/pts
ip link set lo up
echo 2097152 > /proc/sys/fs/nr_open
echo 4194304 > /proc/sys/fs/file-max
echo 65535 > /proc/sys/net/core/somaxconn
echo 65535 > /proc/sys/net/ipv4/tcp_max_syn_backlog
echo "1024 65535" > /proc/sys/net/ipv4/ip_local_port_range
echo ${hostHugePages()} > /sys/kernel/mm/transparent_hugepage/enabled
echo "virtual machine up: $(nproc) CPUs, $(free -m | awk '/Mem/{print $2}') MiB"
chroot /host /bin/sh ${job}
echo "${EXIT_MARK} $?"
sync
poweroff -f
`;

/** What runs inside, on the host's file system: the bench with the options given, as root of its own kernel. */
const jobScript = (args: string[]) => `set -u
export PATH=${JSON.stringify(process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin')} HOME=/root BENCH_VM=${accel}
ulimit -n 1100000
cd ${JSON.stringify(repoDir)}
exec node node_modules/tsx/dist/cli.mjs bench/run.ts ${args.map((a) => JSON.stringify(a)).join(' ')}
`;

function buildInitramfs(modules: string[], job: string): string {
  const dir = path.join(cacheDir, 'initramfs');
  fs.rmSync(dir, { recursive: true, force: true });
  for (const d of ['bin', 'mods', 'proc', 'sys', 'dev', 'host'])
    fs.mkdirSync(path.join(dir, d), { recursive: true });
  fs.copyFileSync('/bin/busybox', path.join(dir, 'bin/busybox'));
  fs.chmodSync(path.join(dir, 'bin/busybox'), 0o755);
  for (const m of modules) fs.copyFileSync(m, path.join(dir, 'mods', path.basename(m)));
  fs.writeFileSync(path.join(dir, 'mods/order'), `${modules.map((m) => path.basename(m)).join('\n')}\n`);
  fs.writeFileSync(path.join(dir, 'init'), initScript(job), { mode: 0o755 });
  const cpio = path.join(cacheDir, 'initramfs.cpio');
  const list = spawnSync('find', ['.'], { cwd: dir, encoding: 'utf8' }).stdout;
  const r = spawnSync('/bin/busybox', ['cpio', '-o', '-H', 'newc'], {
    cwd: dir,
    input: list,
    maxBuffer: 2 ** 28,
  });
  if (r.status !== 0) throw new Error(`cpio failed: ${r.stderr}`);
  fs.writeFileSync(cpio, r.stdout);
  return cpio;
}

async function main() {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new Error('bench:vm runs on x86-64 Linux');
  fs.mkdirSync(cacheDir, { recursive: true });
  ensureTools();
  const kernel = ensureKernel();
  const job = path.join(cacheDir, 'job.sh');
  fs.writeFileSync(job, jobScript(process.argv.slice(2)));
  const initramfs = buildInitramfs(moduleOrder(kernel.modules), job);
  const qemu = spawn(
    'qemu-system-x86_64',
    [
      ...(accel === 'kvm' ? ['-enable-kvm', '-cpu', 'host'] : ['-accel', 'tcg,thread=multi', '-cpu', 'max']),
      ['-smp', cpus],
      ['-m', memory],
      ['-nographic', '-no-reboot', '-nic', 'none'],
      ['-kernel', kernel.vmlinuz, '-initrd', initramfs],
      ['-append', 'console=ttyS0 quiet panic=-1'],
      ['-virtfs', 'local,path=/,mount_tag=host,security_model=passthrough,id=host,multidevs=remap'],
    ].flat(),
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => qemu.kill());
  let exitCode = 1;
  let pending = '';
  // The firmware's and the kernel's lines are kept back until the machine is up, and shown only if it never is.
  let up = false;
  const early: string[] = [];
  qemu.stdout.setEncoding('utf8');
  qemu.stdout.on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const raw of lines) {
      // The serial console's carriage returns and the firmware's screen codes are not the bench's.
      const line = stripVTControlCharacters(raw).replace(/\r/g, '');
      const mark = new RegExp(`^${EXIT_MARK} (\\d+)`).exec(line);
      if (mark) exitCode = Number(mark[1]);
      else if (up) process.stdout.write(`${line}\n`);
      else early.push(line);
      // The firmware's last line has no line break of its own: the machine's first words follow on it.
      const at = line.indexOf('virtual machine up');
      if (!up && at >= 0) {
        up = true;
        process.stdout.write(`${line.slice(at)}\n`);
      }
    }
  });
  await new Promise<void>((resolve) => qemu.on('exit', () => resolve()));
  if (!up) process.stderr.write(`the virtual machine did not come up:\n${early.join('\n')}\n`);
  process.exitCode = exitCode;
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
