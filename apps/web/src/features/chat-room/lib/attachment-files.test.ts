import { ATTACHMENT_MAX_BYTES } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import {
  ATTACH_MAX_FILES,
  attachmentProblem,
  attachmentProblems,
  formatBytes,
  guessFileType,
  tooManyText,
} from './attachment-files';

const file = (name: string, type: string, size = 100) => ({ name, type, size });

describe('attachmentProblem', () => {
  it('accepts images, videos, audio and the listed documents', () => {
    expect(attachmentProblem(file('a.png', 'image/png'))).toBeNull();
    expect(attachmentProblem(file('song.mp3', 'audio/mpeg'))).toBeNull();
    expect(attachmentProblem(file('clip.webm', 'video/webm'))).toBeNull();
    expect(attachmentProblem(file('doc.pdf', 'application/pdf'))).toBeNull();
    expect(attachmentProblem(file('Notes.TXT', ''))).toBeNull();
    expect(attachmentProblem(file('cv.docx', ''))).toBeNull();
    expect(attachmentProblem(file('old.doc', 'application/msword'))).toBeNull();
  });

  it('refuses other types, SVG, files over 25 MB and empty files, naming the file', () => {
    expect(attachmentProblem(file('run.exe', 'application/x-msdownload'))).toMatch(/^“run.exe” can’t be/);
    expect(attachmentProblem(file('logo.svg', 'image/svg+xml'))).toMatch(/can’t be attached/);
    expect(attachmentProblem(file('big.mp4', 'video/mp4', ATTACHMENT_MAX_BYTES + 1))).toMatch(
      /at most 25 MB/,
    );
    expect(attachmentProblem(file('max.mp4', 'video/mp4', ATTACHMENT_MAX_BYTES))).toBeNull();
    expect(attachmentProblem(file('empty.txt', 'text/plain', 0))).toMatch(/is empty/);
  });

  it('refuses more than the server takes at once', () => {
    const many = Array.from({ length: ATTACH_MAX_FILES + 1 }, (_, i) => file(`${i}.png`, 'image/png'));
    expect(attachmentProblems(many)).toEqual([tooManyText()]);
    expect(attachmentProblems(many.slice(1))).toEqual([]);
  });
});

describe('guessFileType and formatBytes', () => {
  it('guesses the stored kind from type and name', () => {
    expect(guessFileType(file('a.jpg', 'image/jpeg'))).toBe('image');
    expect(guessFileType(file('a.mov', 'video/quicktime'))).toBe('video');
    expect(guessFileType(file('a.m4a', 'audio/mp4'))).toBe('audio');
    expect(guessFileType(file('a.pdf', ''))).toBe('pdf');
    expect(guessFileType(file('a.txt', 'text/plain'))).toBe('text');
    expect(guessFileType(file('a.docx', ''))).toBe('other');
  });

  it('writes sizes briefly', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(14_000)).toBe('14 KB');
    expect(formatBytes(3.2 * 1024 * 1024)).toBe('3.2 MB');
    expect(formatBytes(25 * 1024 * 1024)).toBe('25 MB');
  });
});
