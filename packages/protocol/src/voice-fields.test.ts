import { describe, expect, it } from 'vitest';
import { chatFileSchema } from './chat';
import { serverFrameSchema } from './frames';
import { VOICE_TEXT } from './voice';
import { voiceFieldsSchema } from './voice-fields';

const peaks = (n: number, value = 12) => JSON.stringify(Array(n).fill(value));
const fields = (over: Record<string, string | undefined> = {}) => ({
  kind: 'voice',
  duration_ms: '4200',
  waveform: peaks(64),
  ...over,
});
/** The messages of a refused parse, by field. */
const problems = (input: Record<string, unknown>) => {
  const result = voiceFieldsSchema.safeParse(input);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path[0], i.message]));
};

describe('voiceFieldsSchema', () => {
  it('takes the multipart text of a voice message and gives numbers', () => {
    const waveform = Array.from({ length: 64 }, (_, i) => i * 4);
    expect(voiceFieldsSchema.parse(fields({ waveform: JSON.stringify(waveform) }))).toEqual({
      kind: 'voice',
      duration_ms: 4200,
      waveform,
    });
    expect(voiceFieldsSchema.parse(fields({ duration_ms: '900000' })).duration_ms).toBe(900_000);
    expect(voiceFieldsSchema.parse(fields({ duration_ms: '1' })).duration_ms).toBe(1);
  });

  it('refuses a waveform of another length, values out of range, fractions or not JSON', () => {
    for (const waveform of [
      peaks(63),
      peaks(65),
      peaks(64, 256),
      peaks(64, -1),
      peaks(64, 1.5),
      JSON.stringify(Array(64).fill('9')),
      '[1,2,',
      '{"0":1}',
      '',
      `[${' '.repeat(300)}]`,
    ])
      expect(problems(fields({ waveform }))).toEqual({ waveform: VOICE_TEXT.badWaveform });
  });

  it('refuses a duration of 0, past 15 minutes, or not a whole number', () => {
    for (const duration_ms of ['0', '900001', '12.5', '-3', '1e4', ' 400', '', '9999999999'])
      expect(problems(fields({ duration_ms }))).toEqual({ duration_ms: VOICE_TEXT.badDuration });
  });

  it('refuses another kind and names each missing field', () => {
    expect(problems(fields({ kind: 'music' }))).toEqual({ kind: VOICE_TEXT.badKind });
    expect(Object.keys(problems({}))).toEqual(['kind', 'duration_ms', 'waveform']);
  });
});

describe('a voice message on the wire', () => {
  it('is a file with its kind, duration, waveform and played mark; voice_played names the file', () => {
    const file = {
      id: 3,
      type: 'audio',
      file: '/api/files/3/voice.webm?exp=1&sig=x',
      kind: 'voice',
      duration_ms: 4200,
      waveform: Array(64).fill(7),
      played: false,
    };
    expect(chatFileSchema.parse(file)).toEqual(file);
    expect(chatFileSchema.safeParse({ ...file, kind: 'song' }).success).toBe(false);
    const frame = { type: 'voice_played', message_id: 9, file_id: 3, user_id: 2 };
    expect(serverFrameSchema.parse(frame)).toEqual(frame);
    expect(serverFrameSchema.safeParse({ ...frame, file_id: undefined }).success).toBe(false);
  });
});
