import { ATTACH_MAX_FILES, attachmentProblems, tooManyText } from './attachment-files';

// Files waiting in the composer: chosen with the attach button, pasted or dropped onto the room.
// They go out with the next send, as one message with its text; images show a thumbnail meanwhile.

export interface StagedFile {
  key: string;
  file: File;
  /** An object URL for an image's thumbnail; null for other files. */
  url: string | null;
}

let next = 0;

/**
 * Adds files to those waiting, under the attach button's rules: one refused file (type, size, or more than the
 * message may carry in all) refuses the whole addition, with every reason.
 */
export function stageFiles(
  staged: readonly StagedFile[],
  files: readonly File[],
  thumbnail: (file: File) => string | null,
): { staged: StagedFile[]; problems: string[] } {
  const problems =
    staged.length + files.length > ATTACH_MAX_FILES ? [tooManyText()] : attachmentProblems(files);
  if (problems.length > 0) return { staged: [...staged], problems };
  return {
    staged: [...staged, ...files.map((file) => ({ key: `staged-${++next}`, file, url: thumbnail(file) }))],
    problems: [],
  };
}

/** An object URL for image files the browser can show; the composer revokes it when the file leaves. */
export function imageThumbnail(file: File): string | null {
  return file.type.startsWith('image/') && file.type !== 'image/svg+xml' ? URL.createObjectURL(file) : null;
}

/** The files of a paste or a drop (a paste of plain text has none). */
export function filesOf(data: DataTransfer | null): File[] {
  if (!data) return [];
  return Array.from(data.files);
}
