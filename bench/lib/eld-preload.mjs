// Preloaded (`node --import`) into every server under test, Parley included, without touching its code.
// On SIGUSR2 it writes, to BENCH_STATS_FILE, the event-loop delay since the previous dump and the memory
// usage; the command in `<file>.cmd` says what to do first: `eld` (dump and reset the delay histogram) or
// `gc` (collect garbage twice, for a steady RSS, and leave the histogram alone).
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { writeHeapSnapshot } from 'node:v8';

const file = process.env.BENCH_STATS_FILE;
if (file) {
  const resolutionMs = 10;
  const histogram = monitorEventLoopDelay({ resolution: resolutionMs });
  histogram.enable();
  // The histogram holds the whole interval between its timer's ticks; the delay is what passes the resolution.
  const ms = (/** @type {number} */ ns) =>
    histogram.count ? Math.max(0, Math.round(ns / 1e3) / 1e3 - resolutionMs) : 0;
  process.on('SIGUSR2', () => {
    let command = 'eld';
    try {
      command = readFileSync(`${file}.cmd`, 'utf8').trim();
    } catch {
      // no command file: a plain dump
    }
    const gc = /** @type {{ gc?: () => void }} */ (globalThis).gc;
    if ((command === 'gc' || command.startsWith('snapshot ')) && gc) {
      gc();
      gc();
    }
    // `snapshot <path>`: a heap snapshot after the GC, for finding what each connection keeps.
    if (command.startsWith('snapshot ')) writeHeapSnapshot(command.slice('snapshot '.length));
    const stats = {
      command,
      eld: {
        samples: histogram.count,
        min: ms(histogram.min),
        mean: ms(histogram.mean),
        p50: ms(histogram.percentile(50)),
        p99: ms(histogram.percentile(99)),
        max: ms(histogram.max),
      },
      memory: process.memoryUsage(),
    };
    if (command === 'eld') histogram.reset();
    writeFileSync(`${file}.tmp`, JSON.stringify(stats));
    renameSync(`${file}.tmp`, file);
  });
}
