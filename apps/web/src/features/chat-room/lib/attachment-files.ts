import { ATTACHMENT_MAX_BYTES, type FileType } from '@parley/protocol';
import { t } from '../../../lib/i18n/i18n';
import { fileSize } from '../../../lib/text/locale-format';

// What the attach button may send (SPEC §5: images, videos, .pdf, .doc, .docx, .txt, and audio; at most 25 MB each),
// checked here so a refusal is a clear toast before anything is uploaded. The server checks again, by the bytes.

export const ATTACH_ACCEPT = 'image/*,video/*,audio/*,.pdf,.doc,.docx,.txt';
/** The server takes at most 10 files per upload and per message. */
export const ATTACH_MAX_FILES = 10;

/** More files than one message takes, in the reader's language. */
export const tooManyText = (): string => t('room.files.tooMany', { max: ATTACH_MAX_FILES });

const DOCUMENT_NAME = /\.(pdf|docx?|txt)$/i;

/** The kind a chosen file will most likely be stored as, for the pending message's icon. */
export function guessFileType(file: Pick<File, 'name' | 'type'>): FileType {
  if (file.type.startsWith('image/')) return 'image';
  if (file.type.startsWith('video/')) return 'video';
  if (file.type.startsWith('audio/')) return 'audio';
  if (file.type === 'application/pdf' || /\.pdf$/i.test(file.name)) return 'pdf';
  if (/\.txt$/i.test(file.name)) return 'text';
  return 'other';
}

/** Why one chosen file cannot be attached, or null. SVG is refused: it is never served inline. */
export function attachmentProblem(file: Pick<File, 'name' | 'type' | 'size'>): string | null {
  const media =
    (file.type.startsWith('image/') && file.type !== 'image/svg+xml') ||
    file.type.startsWith('video/') ||
    file.type.startsWith('audio/');
  if (!media && !DOCUMENT_NAME.test(file.name)) return t('room.files.refusedType', { name: file.name });
  if (file.size > ATTACHMENT_MAX_BYTES) return t('room.files.tooLarge', { name: file.name });
  if (file.size === 0) return t('room.files.empty', { name: file.name });
  return null;
}

/** Every reason the chosen files cannot go; an empty list means all of them may be uploaded. */
export function attachmentProblems(files: readonly Pick<File, 'name' | 'type' | 'size'>[]): string[] {
  if (files.length > ATTACH_MAX_FILES) return [tooManyText()];
  return files.map(attachmentProblem).filter((p): p is string => p !== null);
}

/** '512 B', '14 KB', '3.2 MB', in the reader's locale ('3,2 Mo'). */
export const formatBytes = (bytes: number): string => fileSize(bytes);
