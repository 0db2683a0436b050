import { AVATAR_MAX_BYTES, AVATAR_MSG } from '@parley/protocol';
import type { FastifyRequest } from 'fastify';
import { BadRequestError, PayloadTooLargeError } from './errors';

// Reading a form that may change a picture (the profile update, a group's settings): multipart text fields
// plus at most one picture in `image`. The whole body is always read to its end before we answer, so a
// refusal (say, a file over 10 MB) reaches the client as a clean 413 instead of a connection reset mid-upload.

export interface PictureForm {
  fields: Record<string, unknown>;
  image: Buffer | null;
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

/** The client's message when a multipart body cannot be parsed (no boundary, a wrong one, a part cut short). */
export const MALFORMED_FORM = 'The form could not be read: the multipart body is malformed.';

/**
 * What a failure while reading a multipart body means: the loops that read parts do nothing else, so an error
 * without an HTTP status of its own (busboy's 'Boundary not found', 'Unexpected end of form', …) is the body's
 * fault, a 400, never a 500.
 */
export function unreadableForm(err: unknown): unknown {
  const status = (err as { statusCode?: number }).statusCode;
  return status !== undefined && status < 500 ? err : new BadRequestError(MALFORMED_FORM);
}

/** The form's fields and picture; `tooLarge` is the 413's text for a picture past the 10 MB read limit. */
export async function readPictureForm(
  request: FastifyRequest,
  tooLarge: string = AVATAR_MSG.tooLarge,
): Promise<PictureForm> {
  if (!request.isMultipart()) {
    // A JSON body may change the text fields; a picture needs multipart.
    const body = request.body;
    return { fields: body && typeof body === 'object' ? { ...body } : {}, image: null };
  }

  const fields: Record<string, unknown> = {};
  let image: Buffer | null = null;
  let truncated = false;
  let strayFile = false;
  try {
    for await (const part of request.parts({ limits: LIMITS })) {
      if (part.type === 'file') {
        // Read every file to its end (busboy drops what is past the limit) so parsing goes on.
        const chunks: Buffer[] = [];
        for await (const chunk of part.file) chunks.push(chunk as Buffer);
        if (part.fieldname !== 'image' || image) strayFile = true;
        else if (part.file.truncated) truncated = true;
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
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new PayloadTooLargeError(tooLarge);
    if (code === 'FST_FILES_LIMIT') throw new BadRequestError(AVATAR_MSG.tooManyFiles);
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw new BadRequestError('Too many form fields.');
    throw unreadableForm(err);
  }
  drain(request);
  if (truncated) throw new PayloadTooLargeError(tooLarge);
  if (strayFile) throw new BadRequestError(AVATAR_MSG.tooManyFiles);
  return { fields, image };
}
