import { AVATAR_ACCEPTED_TYPES, AVATAR_MSG } from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import { BadRequestError, UnsupportedMediaTypeError } from './errors';
import { sharp } from './images';
import { type FileStorage, randomFileName } from './storage';

// Pictures of people (profiles) and of groups (chats), kept one way for both. A picture as stored: decided
// from its bytes (never the client's name or type), decoded, turned upright, cropped square and re-encoded,
// so nothing of the upload but its pixels survives (no metadata, no trailing payload, no SVG).
const AVATAR_SIZE = 512;
const AVATAR_EXTENSION = 'webp';
export const AVATAR_CONTENT_TYPE = 'image/webp';
/** About 8000 × 8000: a 10 MB file of a flat colour could otherwise decode to gigabytes. */
const MAX_INPUT_PIXELS = 64_000_000;

const accepted = new Set<string>(AVATAR_ACCEPTED_TYPES);

/** The square WebP avatar made from an upload; 415 for anything but PNG, JPEG, GIF or WebP, 400 if undecodable. */
async function toAvatar(bytes: Uint8Array): Promise<Buffer> {
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

/** Avatar file names are ours alone: 22 URL-safe random characters and the extension. */
const AVATAR_NAME = new RegExp(`^[A-Za-z0-9_-]{22}\\.${AVATAR_EXTENSION}$`);
const avatarKey = (name: string) => `avatars/${name}`;

/** Stored avatars, by the random name a row keeps (`users.avatar`, `chats.avatar`). */
export class AvatarStore {
  constructor(
    private readonly storage: FileStorage,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Re-encodes an upload (415 or 400 for one that is no picture) and stores it under a fresh name. */
  async save(upload: Uint8Array): Promise<string> {
    const bytes = await toAvatar(upload);
    const name = randomFileName(AVATAR_EXTENSION);
    await this.storage.put(avatarKey(name), bytes);
    return name;
  }

  /** A file left behind is garbage, not a failure of the request: logged, never thrown. */
  async remove(name: string | null): Promise<void> {
    if (!name) return;
    try {
      await this.storage.delete(avatarKey(name));
    } catch (err) {
      this.log.warn({ err, name }, 'could not remove an avatar file');
    }
  }

  /**
   * A stored avatar's bytes by its public name; null for a name we could not have made or a file that is gone.
   * Avatars are small, so they are answered from memory: the response is complete the moment it is sent, never
   * left half-streamed when the server shuts down.
   */
  read(name: string): Promise<Buffer | null> {
    if (!AVATAR_NAME.test(name)) return Promise.resolve(null);
    return this.storage.read(avatarKey(name));
  }
}
