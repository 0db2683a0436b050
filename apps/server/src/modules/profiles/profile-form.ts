import { AVATAR_MAX_BYTES, AVATAR_MSG, MSG } from '@parley/protocol';
import type { FastifyRequest } from 'fastify';
import { BadRequestError, HttpError, PayloadTooLargeError } from '../../platform/errors';

// Reading the profile update form: multipart text fields plus at most one picture in `image`.
// The whole body is always read to its end before we answer, so a refusal (say, a file over 10 MB)
// reaches the client as a clean 413 instead of a connection reset mid-upload.

export interface ProfileForm {
  fields: Record<string, unknown>;
  image: Buffer | null;
}

const REQUIRED = {
  first_name: MSG.firstNameRequired,
  last_name: MSG.lastNameRequired,
  username: MSG.usernameRequired,
};

/** 400 carrying SPEC §5's sentence as detail and each missing field's own message. */
export class ProfileFieldsRequiredError extends HttpError {
  constructor(fields: Record<string, string[]>) {
    super(400, { detail: MSG.profileRequired, ...fields });
  }
}

/** Refuses a form without first name, last name or username before anything else is looked at. */
export function assertRequiredFields(fields: Record<string, unknown>): void {
  const missing: Record<string, string[]> = {};
  for (const [name, message] of Object.entries(REQUIRED)) {
    const value = fields[name];
    if (typeof value !== 'string' || value.trim() === '') missing[name] = [message];
  }
  if (Object.keys(missing).length > 0) throw new ProfileFieldsRequiredError(missing);
}

const LIMITS = {
  fileSize: AVATAR_MAX_BYTES,
  files: 1,
  fields: 10,
  fieldSize: 16 * 1024,
  parts: 12,
};

/**
 * After an early stop (a limit, a malformed part) the parser is unpiped with part of the body unread,
 * and a request never read to its end leaves its keep-alive connection stuck; read the rest and drop it.
 */
function drain(request: FastifyRequest): void {
  if (!request.raw.readableEnded) request.raw.resume();
}

export async function readProfileForm(request: FastifyRequest): Promise<ProfileForm> {
  if (!request.isMultipart()) {
    // A JSON body may change the text fields; a picture needs multipart.
    const body = request.body;
    return { fields: body && typeof body === 'object' ? { ...body } : {}, image: null };
  }

  const fields: Record<string, unknown> = {};
  let image: Buffer | null = null;
  let tooLarge = false;
  let strayFile = false;
  try {
    for await (const part of request.parts({ limits: LIMITS })) {
      if (part.type === 'file') {
        // Read every file to its end (busboy drops what is past the limit) so parsing goes on.
        const chunks: Buffer[] = [];
        for await (const chunk of part.file) chunks.push(chunk as Buffer);
        if (part.fieldname !== 'image' || image) strayFile = true;
        else if (part.file.truncated) tooLarge = true;
        else {
          const bytes = Buffer.concat(chunks);
          // A form sent with no file chosen carries an empty, nameless part: that is "no new picture".
          if (bytes.length > 0 || part.filename) image = bytes;
        }
      } else if (!Object.hasOwn(fields, part.fieldname)) {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    drain(request);
    const code = (err as { code?: string }).code;
    // Raised once the whole body has been read, after the truncated file was seen.
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new PayloadTooLargeError(AVATAR_MSG.tooLarge);
    if (code === 'FST_FILES_LIMIT') throw new BadRequestError(AVATAR_MSG.tooManyFiles);
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw new BadRequestError('Too many form fields.');
    throw err;
  }
  drain(request);
  if (tooLarge) throw new PayloadTooLargeError(AVATAR_MSG.tooLarge);
  if (strayFile) throw new BadRequestError(AVATAR_MSG.tooManyFiles);
  return { fields, image };
}
