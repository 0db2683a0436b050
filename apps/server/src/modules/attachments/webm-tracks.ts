import { open } from 'node:fs/promises';

// The kinds of track a WebM declares, read from its head. music-metadata refuses a WebM recorded live, as a
// browser's MediaRecorder writes it: its Segment and Clusters are of unknown size (EBML's all-ones size), which
// its parser cannot skip. The tracks come before the first Cluster, so their declaration is all that is read.

const SEGMENT = 0x18538067;
const TRACKS = 0x1654ae6b;
const TRACK_ENTRY = 0xae;
const TRACK_TYPE = 0x83;
const CLUSTER = 0x1f43b675;
/** How much of the file is read: the header, Info, Tracks (a few hundred bytes in practice). */
const HEAD_BYTES = 256 * 1024;

/** An EBML variable-length integer at `at`: its value (null for the reserved "unknown"), its length. */
function vint(buf: Buffer, at: number, isId: boolean): { value: number | null; length: number } | null {
  const first = buf[at];
  if (first === undefined || first === 0) return null;
  const length = Math.clz32(first) - 23;
  if (at + length > buf.length) return null;
  let value = isId ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    const byte = buf[at + i] as number;
    value = value * 256 + byte;
    if (byte !== 0xff) allOnes = false;
  }
  return { value: !isId && allOnes ? null : value, length };
}

/** The elements between `from` and `to`: id, where the body starts, its size (null: unknown, to the end). */
function* elements(buf: Buffer, from: number, to: number) {
  let at = from;
  while (at < to) {
    const id = vint(buf, at, true);
    const size = id && vint(buf, at + id.length, false);
    if (!id || !size) return;
    const body = at + id.length + size.length;
    yield { id: id.value as number, body, size: size.value };
    if (size.value === null) return;
    at = body + size.value;
  }
}

/** Whether a WebM declares sound and pictures; null when its Tracks cannot be read from its head. */
export async function webmTracks(filePath: string): Promise<{ audio: boolean; video: boolean } | null> {
  const file = await open(filePath, 'r');
  let buf: Buffer;
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(HEAD_BYTES), 0, HEAD_BYTES, 0);
    buf = buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
  for (const top of elements(buf, 0, buf.length)) {
    if (top.id !== SEGMENT) continue;
    const end = top.size === null ? buf.length : Math.min(buf.length, top.body + top.size);
    for (const child of elements(buf, top.body, end)) {
      if (child.id === CLUSTER) return null;
      if (child.id !== TRACKS || child.size === null) continue;
      const kinds = { audio: false, video: false };
      for (const entry of elements(buf, child.body, child.body + child.size)) {
        if (entry.id !== TRACK_ENTRY || entry.size === null) continue;
        for (const field of elements(buf, entry.body, entry.body + entry.size)) {
          if (field.id !== TRACK_TYPE || field.size !== 1) continue;
          if (buf[field.body] === 1) kinds.video = true;
          if (buf[field.body] === 2) kinds.audio = true;
        }
      }
      return kinds;
    }
  }
  return null;
}
