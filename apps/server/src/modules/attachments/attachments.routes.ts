import { ATTACHMENT_MAX_BYTES } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { requireAuth, sessionOf } from '../../platform/auth';
import { BadRequestError, PayloadTooLargeError } from '../../platform/errors';
import { unreadableForm } from '../../platform/picture-form';

const MAX_FILES = 10;

// Uploading attachments (members only) and serving them by signed URL with safe headers (DESIGN §7).
export async function attachmentsRoutes(app: FastifyInstance, ctx: AppContext) {
  app.post<{ Params: { chatId: string } }>(
    '/chats/:chatId/attachments/',
    { preHandler: requireAuth(ctx.sessions) },
    async (req) => {
      const userId = sessionOf(req).userId;
      const { chat } = await ctx.chats.requireMember(userId, req.params.chatId);
      if (!req.isMultipart()) throw new BadRequestError('Send the files as multipart/form-data.');
      const uploads: { name: string; bytes: Buffer }[] = [];
      let tooLarge = false;
      try {
        for await (const part of req.parts({
          limits: { fileSize: ATTACHMENT_MAX_BYTES, files: MAX_FILES, fields: 5 },
        })) {
          if (part.type !== 'file') continue;
          const chunks: Buffer[] = [];
          for await (const chunk of part.file) chunks.push(chunk as Buffer);
          if (part.file.truncated) tooLarge = true;
          else if (chunks.length > 0)
            uploads.push({ name: part.filename || 'file', bytes: Buffer.concat(chunks) });
        }
      } catch (err) {
        if (!req.raw.readableEnded) req.raw.resume();
        const code = (err as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE') tooLarge = true;
        else if (code === 'FST_FILES_LIMIT')
          throw new BadRequestError(`Attach at most ${MAX_FILES} files at once.`);
        else throw unreadableForm(err);
      }
      if (tooLarge) throw new PayloadTooLargeError('Each file must be at most 25 MB.');
      if (uploads.length === 0) throw new BadRequestError('Choose at least one file.');
      return { files: await ctx.attachments.upload(chat.id, userId, uploads) };
    },
  );

  app.get<{ Params: { id: string; name: string }; Querystring: { exp?: string; sig?: string } }>(
    '/files/:id/:name',
    async (req, reply) => {
      const id = Number(req.params.id);
      if (!Number.isSafeInteger(id) || id <= 0) return reply.code(404).send({ detail: 'Not found.' });
      const thumb = req.params.name === 'thumb';
      const file = await ctx.attachments.open(id, thumb, req.query.exp, req.query.sig);
      const inline = file.type === 'image' || file.type === 'video' || file.type === 'pdf';
      const encoded = encodeURIComponent(file.name);
      // Sandboxed (no scripts, no same-origin) for everything; Chrome's PDF viewer does not run sandboxed,
      // so a PDF gets a strict policy instead. Only Parley's own pages may frame a file (the preview).
      const csp =
        file.type === 'pdf'
          ? "default-src 'none'; frame-ancestors 'self'"
          : "sandbox; default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'";
      return reply
        .header('content-type', file.type === 'text' ? 'text/plain; charset=utf-8' : file.mime)
        .header('content-length', String(file.size))
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
