import type { FileType } from '@parley/protocol';
import { fileTypeFromBuffer } from 'file-type';

// What may be attached (SPEC: images, video, .pdf, .doc, .docx, .txt), decided from the bytes, never the name.
export interface FileKind {
  type: FileType;
  mime: string;
  ext: string;
}

const BY_MIME: Record<string, FileKind> = {
  'image/png': { type: 'image', mime: 'image/png', ext: 'png' },
  'image/jpeg': { type: 'image', mime: 'image/jpeg', ext: 'jpg' },
  'image/gif': { type: 'image', mime: 'image/gif', ext: 'gif' },
  'image/webp': { type: 'image', mime: 'image/webp', ext: 'webp' },
  'video/mp4': { type: 'video', mime: 'video/mp4', ext: 'mp4' },
  'video/webm': { type: 'video', mime: 'video/webm', ext: 'webm' },
  'video/quicktime': { type: 'video', mime: 'video/quicktime', ext: 'mov' },
  'video/ogg': { type: 'video', mime: 'video/ogg', ext: 'ogv' },
  'application/pdf': { type: 'pdf', mime: 'application/pdf', ext: 'pdf' },
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': {
    type: 'other',
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    ext: 'docx',
  },
  // Legacy Word files are OLE compound files; file-type names the container.
  'application/x-cfb': { type: 'other', mime: 'application/msword', ext: 'doc' },
  'application/msword': { type: 'other', mime: 'application/msword', ext: 'doc' },
};

/** Plain text has no magic bytes: accept a .txt name only when the bytes are UTF-8 without control characters. */
function looksLikeText(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false;
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (text.includes('\uFFFD')) return false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point.
  return !/[\x01-\x08\x0B\x0E-\x1F\x7F]/.test(text);
}

export async function detectKind(bytes: Buffer, fileName: string): Promise<FileKind | null> {
  const detected = await fileTypeFromBuffer(bytes);
  if (detected) {
    const kind = BY_MIME[detected.mime];
    if (kind?.mime === 'application/msword' && !/\.doc$/i.test(fileName)) return null;
    return kind ?? null;
  }
  if (/\.txt$/i.test(fileName) && looksLikeText(bytes))
    return { type: 'text', mime: 'text/plain', ext: 'txt' };
  return null;
}

/** A display name safe in headers and on screen: no paths, no control characters, bounded. */
export function cleanFileName(name: string, ext: string): string {
  const base = (name.split(/[\\/]/).pop() ?? '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point.
    .replace(/[\x00-\x1F\x7F"]/g, '')
    .trim()
    .slice(0, 120);
  return base || `file.${ext}`;
}
