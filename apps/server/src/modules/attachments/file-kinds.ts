import { createReadStream } from 'node:fs';
import type { FileType } from '@parley/protocol';
import { fileTypeFromFile } from 'file-type';

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

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point.
const CONTROL = /[\x00-\x08\x0B\x0E-\x1F\x7F]/;

/**
 * Plain text has no magic bytes: accept a .txt name only when the bytes are UTF-8 without control characters.
 * Read from the file a chunk at a time (a 25 MB text file is never in memory at once), stopping at the first
 * bad byte.
 */
async function looksLikeText(filePath: string): Promise<boolean> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of createReadStream(filePath, { highWaterMark: 64 * 1024 })) {
      if (CONTROL.test(decoder.decode(chunk as Buffer, { stream: true }))) return false;
    }
    return decoder.decode() === '';
  } catch {
    // Not UTF-8 (the fatal decoder throws on a malformed sequence, a cut one included).
    return false;
  }
}

/** What a file on disk is, from its bytes (the detector reads only the few it needs), or null when refused. */
export async function detectKind(filePath: string, fileName: string): Promise<FileKind | null> {
  const detected = await fileTypeFromFile(filePath);
  if (detected) {
    const kind = BY_MIME[detected.mime];
    if (kind?.mime === 'application/msword' && !/\.doc$/i.test(fileName)) return null;
    return kind ?? null;
  }
  if (/\.txt$/i.test(fileName) && (await looksLikeText(filePath)))
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
