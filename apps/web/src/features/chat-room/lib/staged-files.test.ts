import { describe, expect, it } from 'vitest';
import { ATTACH_MAX_FILES, tooManyText } from './attachment-files';
import { stageFiles } from './staged-files';

const fileOf = (name: string, type: string, size = 10) => new File([new Uint8Array(size)], name, { type });
const thumb = (file: File) => (file.type.startsWith('image/') ? `blob:${file.name}` : null);

describe('stageFiles', () => {
  it('adds accepted files with a thumbnail for images only', () => {
    const { staged, problems } = stageFiles(
      [],
      [fileOf('a.png', 'image/png'), fileOf('b.pdf', 'application/pdf')],
      thumb,
    );
    expect(problems).toEqual([]);
    expect(staged.map((s) => [s.file.name, s.url])).toEqual([
      ['a.png', 'blob:a.png'],
      ['b.pdf', null],
    ]);
    expect(new Set(staged.map((s) => s.key)).size).toBe(2);
  });

  it('refuses the whole addition when one file is refused, as the attach button does', () => {
    const first = stageFiles([], [fileOf('a.png', 'image/png')], thumb).staged;
    const { staged, problems } = stageFiles(
      first,
      [fileOf('c.png', 'image/png'), fileOf('tool.exe', 'application/x-msdownload')],
      thumb,
    );
    expect(staged).toEqual(first);
    expect(problems).toEqual([
      '“tool.exe” can’t be attached. Attach images, videos, audio, PDF, Word (.doc, .docx) or text (.txt) files.',
    ]);
  });

  it('counts the files already waiting towards the limit of one message', () => {
    const nine = stageFiles(
      [],
      Array.from({ length: ATTACH_MAX_FILES - 1 }, (_, i) => fileOf(`${i}.txt`, 'text/plain')),
      thumb,
    ).staged;
    expect(stageFiles(nine, [fileOf('x.txt', 'text/plain')], thumb).problems).toEqual([]);
    expect(
      stageFiles(nine, [fileOf('x.txt', 'text/plain'), fileOf('y.txt', 'text/plain')], thumb).problems,
    ).toEqual([tooManyText()]);
  });
});
