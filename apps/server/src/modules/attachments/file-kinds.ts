import { createReadStream } from 'node:fs';
import type { FileType } from '@parley/protocol';
import { fileTypeFromFile } from 'file-type';
import { parseFile } from 'music-metadata';
import { webmTracks } from './webm-tracks';

// What may be attached (SPEC: images, video, .pdf, .doc, .docx, .txt; and audio), decided from the bytes, never
// the name.
export interface FileKind {
  type: FileType;
  mime: string;
  ext: string;
  /** An audio file's length, when the file says it. */
  durationMs?: number;
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

/** Audio formats by their bytes: MP3, WAV, and Ogg (Opus, Vorbis, FLAC, Speex). */
const AUDIO_BY_MIME: Record<string, FileKind> = {
  'audio/mpeg': { type: 'audio', mime: 'audio/mpeg', ext: 'mp3' },
  'audio/wav': { type: 'audio', mime: 'audio/wav', ext: 'wav' },
  'audio/ogg; codecs=opus': { type: 'audio', mime: 'audio/ogg', ext: 'ogg' },
  'audio/ogg': { type: 'audio', mime: 'audio/ogg', ext: 'ogg' },
};

const M4A: FileKind = { type: 'audio', mime: 'audio/mp4', ext: 'm4a' };
/**
 * Containers that hold sound, pictures or both, named by file-type from their first bytes alone (an audio-only
 * WebM is 'video/webm'; an MP4 is 'audio/x-m4a' or 'video/mp4' by its brand): their tracks decide.
 */
const AUDIO_OR_VIDEO: Record<string, { audio: FileKind; video: FileKind }> = {
  'video/webm': {
    audio: { type: 'audio', mime: 'audio/webm', ext: 'webm' },
    video: BY_MIME['video/webm'] as FileKind,
  },
  'video/mp4': { audio: M4A, video: BY_MIME['video/mp4'] as FileKind },
  'audio/x-m4a': { audio: M4A, video: BY_MIME['video/mp4'] as FileKind },
  'audio/mp4': { audio: M4A, video: BY_MIME['video/mp4'] as FileKind },
};

/**
 * What a media file holds, as music-metadata reads it from its headers (with `scan`, from every frame: an MP3
 * without a header that says its length); null when it cannot be read.
 */
async function mediaOf(filePath: string, scan = false) {
  try {
    const { format } = await parseFile(filePath, { skipCovers: true, skipPostHeaders: true, duration: scan });
    const seconds = format.duration;
    return {
      hasAudio: format.hasAudio !== false,
      // A container's own track list: MP4's default of "has audio" is no evidence of a sound track.
      audioTrack: format.trackInfo.some((t) => t.type === 2),
      videoTrack: format.hasVideo === true || format.trackInfo.some((t) => t.type === 1),
      durationMs:
        seconds !== undefined && Number.isFinite(seconds) && seconds > 0
          ? Math.round(seconds * 1000)
          : undefined,
    };
  } catch {
    return null;
  }
}

const withDuration = (kind: FileKind, durationMs: number | undefined): FileKind =>
  durationMs === undefined ? kind : { ...kind, durationMs };

/**
 * An audio file, or a container of audio or video, by its tracks. Audio must be readable to its length (file-type
 * knows MP3 by a two-byte frame sync, which any file may start with); a video container that cannot be read
 * stays a video, as before audio was taken.
 */
async function mediaKind(filePath: string, mime: string): Promise<FileKind | null | undefined> {
  const audio = AUDIO_BY_MIME[mime];
  const either = AUDIO_OR_VIDEO[mime];
  if (!audio && !either) return undefined;
  let media = await mediaOf(filePath);
  if (audio) {
    if (media && media.durationMs === undefined) media = await mediaOf(filePath, true);
    return media?.hasAudio && media.durationMs !== undefined ? withDuration(audio, media.durationMs) : null;
  }
  if (media?.audioTrack && !media.videoTrack)
    return withDuration(either?.audio as FileKind, media.durationMs);
  // A WebM recorded live (MediaRecorder's) is one music-metadata cannot read: its tracks are read here.
  const tracks = !media && mime === 'video/webm' ? await webmTracks(filePath) : null;
  if (tracks?.audio && !tracks.video) return either?.audio;
  return either?.video;
}

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
    const media = await mediaKind(filePath, detected.mime);
    if (media !== undefined) return media;
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
