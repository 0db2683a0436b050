import { ATTACHMENT_MAX_BYTES, VOICE_TEXT, voiceFieldsSchema } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { requireAuth, sessionOf } from '../../platform/auth';
import { asStorageFull, BadRequestError, isStorageFull, PayloadTooLargeError } from '../../platform/errors';
import { unreadableForm } from '../../platform/picture-form';
import { type ByteRange, RangeNotSatisfiableError } from '../../platform/storage';
import { parseBody } from '../../platform/validate';
import type { StagedUpload } from './attachments.service';

const MAX_FILES = 10;
/** A voice message's fields, sent before its file. */
const VOICE_FIELDS = new Set(['kind', 'duration_ms', 'waveform']);

/**
 * The one range of a `Range: bytes=a-b | a- | -n` header (videos are played by ranges); anything else — several
 * ranges, other units, nonsense — is ignored and the whole file served, as HTTP allows.
 */
export function parseRange(header: string | undefined): ByteRange | undefined {
  const match = /^bytes=(\d{0,15})-(\d{0,15})$/.exec(header?.trim() ?? '');
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') return { suffix: Number(match[2]) };
  return { start: Number(match[1]), end: match[2] === '' ? undefined : Number(match[2]) };
}

// Uploading attachments (members only) and serving them by signed URL with safe headers (DESIGN §7).
export async function attachmentsRoutes(app: FastifyInstance, ctx: AppContext) {
  app.post<{ Params: { chatId: string } }>(
    '/chats/:chatId/attachments/',
    { preHandler: requireAuth(ctx.sessions) },
    async (req) => {
      const userId = sessionOf(req).userId;
      const { chat } = await ctx.chats.requireMember(userId, req.params.chatId);
      if (!req.isMultipart()) throw new BadRequestError('Send the files as multipart/form-data.');
      // Each file streams to a temp file as it arrives (never whole in memory); whatever happens — a refusal,
      // a request cut off halfway — every temp file is gone when the request is over.
      const uploads: StagedUpload[] = [];
      try {
        let tooLarge = false;
        const fields: Record<string, string> = {};
        let fieldsLate = false;
        try {
          for await (const part of req.parts({
            limits: { fileSize: ATTACHMENT_MAX_BYTES, files: MAX_FILES, fields: 5, fieldSize: 1024 },
          })) {
            if (part.type !== 'file') {
              if (!VOICE_FIELDS.has(part.fieldname)) continue;
              if (uploads.length > 0) fieldsLate = true;
              fields[part.fieldname] = String(part.value);
              continue;
            }
            const staged = await ctx.attachments.stage(part.file, part.filename || 'file');
            if (part.file.truncated || staged.size === 0) await staged.remove();
            else uploads.push(staged);
            if (part.file.truncated) tooLarge = true;
          }
        } catch (err) {
          if (!req.raw.readableEnded) req.raw.resume();
          const code = (err as { code?: string }).code;
          if (isStorageFull(err)) throw asStorageFull(err);
          if (code === 'FST_REQ_FILE_TOO_LARGE') tooLarge = true;
          else if (code === 'FST_FILES_LIMIT')
            throw new BadRequestError(`Attach at most ${MAX_FILES} files at once.`);
          else throw unreadableForm(err);
        }
        if (tooLarge) throw new PayloadTooLargeError('Each file must be at most 25 MB.');
        if (uploads.length === 0) throw new BadRequestError('Choose at least one file.');
        if (fieldsLate) throw new BadRequestError(VOICE_TEXT.fieldsFirst);
        // A voice message: `kind`, `duration_ms` and `waveform`, all three checked (400 with each field's reason).
        const voice = Object.keys(fields).length > 0 ? parseBody(voiceFieldsSchema, fields) : undefined;
        return {
          files: await ctx.attachments.upload(chat.id, userId, uploads, voice).catch((err: unknown) => {
            throw asStorageFull(err);
          }),
        };
      } finally {
        await Promise.all(uploads.map((u) => u.remove()));
      }
    },
  );

  app.get<{ Params: { id: string; name: string }; Querystring: { exp?: string; sig?: string } }>(
    '/files/:id/:name',
    async (req, reply) => {
      const id = Number(req.params.id);
      if (!Number.isSafeInteger(id) || id <= 0) return reply.code(404).send({ detail: 'Not found.' });
      const thumb = req.params.name === 'thumb';
      const range = parseRange(req.headers.range);
      let file: Awaited<ReturnType<typeof ctx.attachments.open>>;
      try {
        file = await ctx.attachments.open(id, thumb, req.query.exp, req.query.sig, range);
      } catch (err) {
        if (!(err instanceof RangeNotSatisfiableError)) throw err;
        return reply
          .code(416)
          .header('content-range', `bytes */${err.total}`)
          .send({ detail: 'The requested range is not satisfiable.' });
      }
      const inline =
        file.type === 'image' || file.type === 'video' || file.type === 'audio' || file.type === 'pdf';
      const encoded = encodeURIComponent(file.name);
      // Sandboxed (no scripts, no same-origin) for everything; Chrome's PDF viewer does not run sandboxed,
      // so a PDF gets a strict policy instead. Only Parley's own pages may frame a file (the preview).
      const csp =
        file.type === 'pdf'
          ? "default-src 'none'; frame-ancestors 'self'"
          : "sandbox; default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'";
      if (range) reply.code(206).header('content-range', `bytes ${file.start}-${file.end}/${file.total}`);
      return reply
        .header('content-type', file.type === 'text' ? 'text/plain; charset=utf-8' : file.mime)
        .header('content-length', String(file.size))
        .header('accept-ranges', 'bytes')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', csp)
        .header('x-frame-options', 'SAMEORIGIN')
        .header('cross-origin-resource-policy', 'same-origin')
        .header('cache-control', 'private, max-age=3600')
        .header('content-disposition', `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encoded}`)
        .send(file.stream);
    },
  );
}
