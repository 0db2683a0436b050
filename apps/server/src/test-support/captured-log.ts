import { Writable } from 'node:stream';
import pino from 'pino';

/** A real pino logger at info whose lines a unit test reads back: parsed, and as written (`raw`). */
export function capturedLog() {
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n'))
        if (line) {
          raw.push(line);
          lines.push(JSON.parse(line));
        }
      done();
    },
  });
  return { log: pino({ level: 'info' }, stream), lines, raw };
}
