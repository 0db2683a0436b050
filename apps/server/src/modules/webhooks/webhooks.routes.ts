import {
  WEBHOOK_MAX_TEXT,
  WEBHOOK_TEXT,
  webhookCreatedSchema,
  webhookCreateSchema,
  webhookListSchema,
} from '@parley/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { requireAuth, sessionOf } from '../../platform/auth';
import { pathId } from '../../platform/path-ids';
import { enforceLimit } from '../../platform/rate-limit-policy';
import { responseSchema } from '../../platform/response-schema';
import { parseBody } from '../../platform/validate';

type ChatParams = { Params: { chatId: string } };
type HookParams = { Params: { chatId: string; id: string } };

/** Webhooks a person may make in an hour, in all their chats. */
export const WEBHOOKS_PER_HOUR = 30;

/** Where the hooks' URLs point: PUBLIC_URL, or else the address this request came to. */
const baseUrlOf = (ctx: AppContext, req: FastifyRequest) =>
  ctx.config.publicUrl ?? `${req.protocol}://${req.host}`;

// A chat's incoming webhooks, managed under /api by either person of a private chat or a group's admins
// (a session, or a write token to change them).
export async function webhooksRoutes(app: FastifyInstance, ctx: AppContext) {
  const auth = requireAuth(ctx.sessions);
  /** Each hook is a credential to post: a few dozen an hour is plenty, and bounds what a stolen session mints. */
  const mintLimit = async (req: { session: { userId: number } | null }) =>
    enforceLimit(ctx.limiter, `webhooks:${req.session?.userId}`, WEBHOOKS_PER_HOUR, 60 * 60_000);

  app.post<ChatParams>(
    '/chats/:chatId/webhooks/',
    {
      preHandler: [auth, mintLimit],
      schema: { response: { 201: responseSchema(webhookCreatedSchema) } },
    },
    async (req, reply) => {
      const input = parseBody(webhookCreateSchema, req.body);
      const created = await ctx.webhooks.create(
        sessionOf(req).userId,
        req.params.chatId,
        input,
        baseUrlOf(ctx, req),
      );
      return reply.code(201).send(created);
    },
  );

  app.get<ChatParams>(
    '/chats/:chatId/webhooks/',
    { preHandler: auth, schema: { response: { 200: responseSchema(webhookListSchema) } } },
    async (req) => ({ results: await ctx.webhooks.list(sessionOf(req).userId, req.params.chatId) }),
  );

  app.delete<HookParams>('/chats/:chatId/webhooks/:id/', { preHandler: auth }, async (req, reply) => {
    const id = pathId(req.params.id, WEBHOOK_TEXT.notFound);
    await ctx.webhooks.revoke(sessionOf(req).userId, req.params.chatId, id);
    return reply.code(204).send();
  });
}

/** A posted body's bound: the longest text, four bytes a character, and room for Slack's other fields. */
const HOOK_BODY_LIMIT = WEBHOOK_MAX_TEXT * 4 + 16 * 1024;

/**
 * A Slack-style form post: the JSON its `payload` field holds, or null when there is none, which the service
 * refuses once it knows the hook (an unknown hook is a 404 whatever was sent).
 */
function formPayload(raw: string): unknown {
  const payload = new URLSearchParams(raw).get('payload');
  try {
    return payload === null ? null : JSON.parse(payload);
  } catch {
    return null;
  }
}

// POST /hooks/{secret}, at the root as Slack's are: no credential but the secret in the URL. JSON, or a form
// whose `payload` field holds the JSON; the parser for forms is this plugin's alone.
export async function hookPostRoutes(app: FastifyInstance, ctx: AppContext) {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: HOOK_BODY_LIMIT },
    (_req, body, done) => done(null, formPayload(body as string)),
  );

  app.post<{ Params: { secret: string } }>(
    '/hooks/:secret',
    { bodyLimit: HOOK_BODY_LIMIT },
    async (req, reply) => {
      await ctx.webhooks.post(req.params.secret, req.body);
      return reply.type('text/plain; charset=utf-8').send('ok');
    },
  );
}
