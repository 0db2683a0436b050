import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type Channel, SocketFuzzer, socketCases } from '../helpers/fuzz-sockets';
import { fuzzParameters, fuzzTimeoutMs, makeWorld, type World } from '../helpers/fuzz-world';
import { startTestApp, type TestApp } from '../helpers/test-app';

// A real room socket and the notification socket, sent frames generated from the protocol's client frame
// schemas and mutated beyond them (wrong kinds, lone surrogates, huge and deep values, text that is not JSON,
// binary frames, text frames that are not UTF-8, frames past the size limits): the socket answers with an
// error frame or ignores the frame, and still answers a valid one after each case, or closes with a code the
// protocol or WebSocket names for what was sent (and a new one opens); every frame the server sends is one
// the protocol's server schemas accept; HTTP keeps answering. Deterministic per seed (FUZZ_SEED, FUZZ_PATH);
// the long run is `npm run fuzz` (FUZZ_SECONDS).

let t: TestApp;
let world: World;
const fuzzers: SocketFuzzer[] = [];

beforeAll(async () => {
  t = await startTestApp({ config: { messageRateLimit: 1_000_000, socketTicketsPerMinute: 1_000_000 } });
  world = await makeWorld(t);
}, 60_000);
afterAll(async () => {
  for (const f of fuzzers) {
    console.log(
      `fuzz-sockets ${f.channel}: frames received ${JSON.stringify(Object.fromEntries(f.frameCounts))}`,
    );
    await f.close();
  }
  await t?.close();
});

describe('fuzzing the socket frames', () => {
  const channels: [Channel, number][] = [
    ['room', 80],
    ['notifications', 80],
  ];
  for (const [channel, runs] of channels) {
    it(
      `${channel}: an error frame or nothing, never a crash, and the socket still answers`,
      async () => {
        const fuzzer = new SocketFuzzer(t, world, channel);
        fuzzers.push(fuzzer);
        await fc.assert(
          fc.asyncProperty(socketCases(channel), (c) => fuzzer.run(c)),
          fuzzParameters(runs, 1 / channels.length),
        );
      },
      fuzzTimeoutMs(60_000),
    );
  }
});
