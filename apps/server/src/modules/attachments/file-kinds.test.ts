import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { elfOf, m4aOf, mp3Of, mp4Of, oggOpusOf, wavOf, webmOf } from '@parley/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectKind } from './file-kinds';

// Audio is told by its bytes and, in containers that hold video too, by its tracks.

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parley-kinds-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

let n = 0;
async function kindOf(bytes: Buffer, name = 'upload.bin') {
  const path = join(dir, `f${n++}`);
  await writeFile(path, bytes);
  return detectKind(path, name);
}

describe('detectKind for audio', () => {
  it('knows WAV, MP3 and Ogg/Opus by their bytes and reads how long they are', async () => {
    expect(await kindOf(wavOf({ ms: 1500 }))).toEqual({
      type: 'audio',
      mime: 'audio/wav',
      ext: 'wav',
      durationMs: 1500,
    });
    const mp3 = await kindOf(mp3Of({ ms: 2000 }), 'song.txt');
    expect(mp3).toMatchObject({ type: 'audio', mime: 'audio/mpeg', ext: 'mp3' });
    expect(mp3?.durationMs).toBeGreaterThan(1900);
    expect(mp3?.durationMs).toBeLessThan(2100);
    expect(await kindOf(oggOpusOf({ ms: 1000 }))).toEqual({
      type: 'audio',
      mime: 'audio/ogg',
      ext: 'ogg',
      durationMs: 994,
    });
  });

  it('takes a WebM or an MP4 with only a sound track as audio, and one with a video track as video', async () => {
    expect(await kindOf(webmOf({ ms: 1200 }))).toEqual({
      type: 'audio',
      mime: 'audio/webm',
      ext: 'webm',
      durationMs: 1200,
    });
    // As MediaRecorder writes it: no duration, and sizes unknown (music-metadata cannot read it).
    expect(await kindOf(webmOf({ live: true }))).toEqual({ type: 'audio', mime: 'audio/webm', ext: 'webm' });
    expect(await kindOf(webmOf({ live: true, video: true }))).toMatchObject({ type: 'video' });
    expect(await kindOf(webmOf({ video: true }))).toMatchObject({ type: 'video', mime: 'video/webm' });
    expect(await kindOf(webmOf({ audio: false, video: true }))).toMatchObject({ type: 'video' });
    expect(await kindOf(m4aOf({ ms: 1000 }))).toMatchObject({
      type: 'audio',
      mime: 'audio/mp4',
      ext: 'm4a',
      durationMs: 998,
    });
    expect(await kindOf(m4aOf({ video: true }))).toEqual({ type: 'video', mime: 'video/mp4', ext: 'mp4' });
    // No tracks at all: still the video it was taken for before audio.
    expect(await kindOf(mp4Of())).toEqual({ type: 'video', mime: 'video/mp4', ext: 'mp4' });
  });

  it('refuses an executable named as audio, and bytes that only start like an MP3', async () => {
    expect(await kindOf(elfOf(), 'voice.webm')).toBeNull();
    const fake = Buffer.alloc(4096, 0x41);
    fake.set([0xff, 0xfb, 0x10, 0xc0]);
    fake.write('MZ', 4);
    expect(await kindOf(fake, 'song.mp3')).toBeNull();
  });
});
