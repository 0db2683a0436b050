import type { ChatFile, Message } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { testMessage } from './test-message';
import { applyVoicePlayed, marksPlayed } from './voice-played';

const voice: ChatFile = { id: 5, type: 'audio', file: '/api/files/5/v.webm', kind: 'voice', played: false };

describe('applyVoicePlayed', () => {
  it('marks that file of that message played, and changes nothing otherwise', () => {
    const list: Message[] = [testMessage(1), testMessage(2, { files: [voice] })];
    const next = applyVoicePlayed(list, 2, 5);
    expect(next[1]?.files[0]?.played).toBe(true);
    expect(next[0]).toBe(list[0]);
    expect(applyVoicePlayed(next, 2, 5)).toBe(next);
    expect(applyVoicePlayed(list, 2, 6)).toBe(list);
    expect(applyVoicePlayed(list, 3, 5)).toBe(list);
  });
});

describe('marksPlayed', () => {
  it('is the recipient playing an unplayed voice message in a private chat', () => {
    expect(marksPlayed(voice, { sender: 2 }, 1, true)).toBe(true);
    expect(marksPlayed(voice, { sender: 1 }, 1, true)).toBe(false);
    expect(marksPlayed(voice, { sender: 2 }, 1, false)).toBe(false);
    expect(marksPlayed({ ...voice, played: true }, { sender: 2 }, 1, true)).toBe(false);
    expect(marksPlayed({ ...voice, kind: undefined }, { sender: 2 }, 1, true)).toBe(false);
  });
});
