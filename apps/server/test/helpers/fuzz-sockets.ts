import {
  CLOSE_NOT_FOUND,
  CLOSE_SERVICE_RESTART,
  clientFrameSchema,
  notificationClientFrameSchema,
  notificationFrameSchema,
  SOCKET_MAX_PAYLOAD_BYTES,
  serverFrameSchema,
} from '@parley/protocol';
import fc from 'fast-check';
import { KNOWN, resolveValue } from './fuzz-http';
import { hugeString, mutate, nastyString, rawBody } from './fuzz-inputs';
import { send, type World } from './fuzz-world';
import { zodArbitrary } from './fuzz-zod';
import type { TestApp } from './test-app';
import { connectWs, NOTIFICATIONS_PATH, roomPath, type WsClient } from './ws-client';

// Socket cases for the fuzzer: frames generated from the protocol's client frame schemas and mutated beyond
// them, text that is not JSON, binary frames, text frames that are not UTF-8, frames past the size limits.
// After each the socket must still answer (or have closed with a code the protocol names, and a new one
// opens), every frame the server sent must be one the protocol's server schemas accept, and HTTP must answer.

export type Channel = 'room' | 'notifications';

export type FrameCase =
  | { kind: 'json'; value: unknown }
  | { kind: 'text'; text: string }
  | { kind: 'bytes'; base64: string; binary: boolean }
  | { kind: 'large'; bytes: number };

export interface SocketCase {
  channel: Channel;
  frames: FrameCase[];
}

/** The hard cap of the socket library (app.ts): past it the socket is closed with 1009, as WebSocket says. */
const HARD_CAP_BYTES = 16 * SOCKET_MAX_PAYLOAD_BYTES;
const PROBE_TIMEOUT_MS = 15_000;

export function frameCases(): fc.Arbitrary<FrameCase> {
  const valid = fc.oneof(
    zodArbitrary(clientFrameSchema, KNOWN),
    zodArbitrary(notificationClientFrameSchema, KNOWN),
  );
  return fc.oneof(
    { arbitrary: valid.map((value): FrameCase => ({ kind: 'json', value })), weight: 3 },
    { arbitrary: mutate(valid).map((value): FrameCase => ({ kind: 'json', value })), weight: 5 },
    {
      arbitrary: fc
        .oneof(
          nastyString(),
          hugeString().filter((s) => Buffer.byteLength(s) < HARD_CAP_BYTES),
        )
        .map((text): FrameCase => ({ kind: 'text', text })),
      weight: 1,
    },
    {
      arbitrary: rawBody(valid).map(
        ({ bytes, contentType }): FrameCase =>
          typeof bytes === 'string'
            ? { kind: 'text', text: bytes }
            : { kind: 'bytes', base64: bytes.toString('base64'), binary: contentType === null },
      ),
      weight: 2,
    },
    {
      arbitrary: fc
        .constantFrom(SOCKET_MAX_PAYLOAD_BYTES + 1, 200_000, HARD_CAP_BYTES + 1)
        .map((bytes): FrameCase => ({ kind: 'large', bytes })),
      weight: 1,
    },
  );
}

export const socketCases = (channel: Channel): fc.Arbitrary<SocketCase> =>
  fc.record({
    channel: fc.constant(channel),
    frames: fc.array(frameCases(), { minLength: 1, maxLength: 4 }),
  });

/** The close codes a fuzzed frame may end a socket with: the protocol's, and WebSocket's for what it broke. */
function allowedCloses(frames: FrameCase[]): Set<number> {
  const codes = new Set<number>([CLOSE_NOT_FOUND, CLOSE_SERVICE_RESTART]);
  for (const f of frames) {
    // A text frame that is not UTF-8: 1007 (invalid frame payload data), from the socket library itself.
    if (f.kind === 'bytes' && !f.binary) codes.add(1007);
    // Past the library's hard cap: 1009 (message too big).
    if (f.kind === 'large' && f.bytes > HARD_CAP_BYTES) codes.add(1009);
  }
  return codes;
}

/** One channel's socket under fuzzing, opened again after a case that closed it in a permitted way. */
export class SocketFuzzer {
  private client: WsClient | null = null;
  private probes = 0;
  /** Frames the server sent that its own protocol schemas refuse. */
  readonly frameCounts = new Map<string, number>();

  constructor(
    readonly t: TestApp,
    readonly world: World,
    readonly channel: Channel,
  ) {}

  private get path() {
    return this.channel === 'room' ? roomPath(this.world.privateChat) : NOTIFICATIONS_PATH;
  }

  async open(): Promise<WsClient> {
    const client = await connectWs(this.t, this.path, this.world.me.token, { label: `fuzz ${this.channel}` });
    if (!client.opened) throw new Error(`fuzz ${this.channel}: the socket did not open`);
    await client.next(
      this.channel === 'room' ? 'in_chat_count' : 'notification_count',
      () => true,
      PROBE_TIMEOUT_MS,
    );
    this.client = client;
    return client;
  }

  async close(): Promise<void> {
    await this.client?.close().catch(() => {});
  }

  private sendFrame(client: WsClient, frame: FrameCase, bytes: Buffer): void {
    client.ws.send(bytes, { binary: frame.kind === 'bytes' && frame.binary });
  }

  /** Sends the case's frames, then checks the socket (or the one opened after a permitted close) answers. */
  async run(c: SocketCase): Promise<void> {
    const client = this.client ?? (await this.open());
    const seenBefore = client.frames.length;
    let refused = 0;
    for (const frame of c.frames) {
      const bytes = this.bytesOf(frame);
      if (SocketFuzzer.refusedByNotifications(bytes)) refused += 1;
      this.sendFrame(client, frame, bytes);
    }
    try {
      await this.probe(client, refused);
    } catch (err) {
      if (client.isOpen) throw err;
      const { code, reason } = await client.closed(PROBE_TIMEOUT_MS);
      if (!allowedCloses(c.frames).has(code)) {
        throw new Error(
          `the ${this.channel} socket closed with ${code} ${JSON.stringify(reason)} (${String(err)})`,
        );
      }
      await this.probe(await this.open(), 0);
    }
    this.checkFrames(client, seenBefore);
    const health = await send(this.t.baseUrl, { method: 'GET', path: '/api/health', headers: {} });
    if (health.status !== 200) throw new Error(`the server stopped answering HTTP: ${health.status}`);
    // A long run opens a fresh socket now and then, so the client's record of frames stays small.
    if (this.probes % 300 === 0) {
      await this.close();
      this.client = null;
    }
  }

  /**
   * A room socket must still take a message (its echo, or an error frame naming it, comes back); the
   * notification socket, which answers valid frames with nothing, must answer each frame it refuses (the
   * case's, counted with the server's own rule, and one more sent now) with an error frame, in order.
   */
  private async probe(client: WsClient, refusedBefore: number): Promise<void> {
    this.probes += 1;
    if (this.channel === 'room') {
      const clientId = `probe-${this.probes}-${Date.now()}`;
      client.send({ type: 'chat_message', body: 'probe', client_id: clientId });
      const echo = client.next('chat_message', (f) => f.message?.client_id === clientId, PROBE_TIMEOUT_MS);
      const refused = client.next('error', (f) => f.client_id === clientId, PROBE_TIMEOUT_MS);
      echo.catch(() => {});
      refused.catch(() => {});
      await Promise.race([echo, refused]);
    } else {
      client.send({ type: 'probe' });
      for (let i = 0; i <= refusedBefore; i++) await client.next('error', () => true, PROBE_TIMEOUT_MS);
    }
  }

  /** The bytes a frame goes out as. */
  private bytesOf(frame: FrameCase): Buffer {
    switch (frame.kind) {
      case 'json':
        return Buffer.from(JSON.stringify(resolveValue(this.world, frame.value)) ?? 'null');
      case 'text':
        return Buffer.from(frame.text);
      case 'bytes':
        return Buffer.from(frame.base64, 'base64');
      case 'large':
        return Buffer.from(JSON.stringify({ type: 'chat_message', body: 'x'.repeat(frame.bytes) }));
    }
  }

  /** Whether the notification socket refuses these bytes (its rule: JSON of the notification client frame). */
  private static refusedByNotifications(bytes: Buffer): boolean {
    try {
      notificationClientFrameSchema.parse(JSON.parse(String(bytes)));
      return false;
    } catch {
      return true;
    }
  }

  /** Every frame the server sent since `from` is one the protocol's schemas for this channel accept. */
  private checkFrames(client: WsClient, from: number): void {
    const schema = this.channel === 'room' ? serverFrameSchema : notificationFrameSchema;
    for (const frame of client.frames.slice(from)) {
      this.frameCounts.set(frame.type, (this.frameCounts.get(frame.type) ?? 0) + 1);
      const parsed = schema.safeParse(frame);
      if (!parsed.success) {
        throw new Error(
          `the ${this.channel} socket sent a frame its protocol refuses: ${JSON.stringify(frame).slice(0, 500)} (${parsed.error.message.slice(0, 300)})`,
        );
      }
    }
  }
}
