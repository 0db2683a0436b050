import { AVATAR_ACCEPTED_TYPES, AVATAR_MSG } from '@parley/protocol';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { BadRequestError, UnsupportedMediaTypeError } from '../../platform/errors';

// A profile picture as stored: decided from its bytes (never the client's name or type), decoded,
// turned upright, cropped square and re-encoded, so nothing of the upload but its pixels survives
// (no metadata, no trailing payload, no SVG).
export const AVATAR_SIZE = 512;
export const AVATAR_EXTENSION = 'webp';
export const AVATAR_CONTENT_TYPE = 'image/webp';
/** About 8000 × 8000: a 10 MB file of a flat colour could otherwise decode to gigabytes. */
const MAX_INPUT_PIXELS = 64_000_000;

const accepted = new Set<string>(AVATAR_ACCEPTED_TYPES);

/** The square WebP avatar made from an upload; 415 for anything but PNG, JPEG, GIF or WebP, 400 if undecodable. */
export async function toAvatar(bytes: Uint8Array): Promise<Buffer> {
  const type = await fileTypeFromBuffer(bytes);
  if (!type || !accepted.has(type.mime)) throw new UnsupportedMediaTypeError(AVATAR_MSG.unsupportedType);
  try {
    return await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', animated: false })
      .rotate()
      .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover', position: 'centre' })
      .webp({ quality: 82, effort: 4 })
      .toBuffer();
  } catch {
    throw new BadRequestError(AVATAR_MSG.unreadable);
  }
}
