import { z } from 'zod';
import { sendFieldsSchema } from './frames';

// Integrations: personal access tokens, bots and incoming webhooks. A token is a Bearer credential like a
// session's; a bot is a user with is_bot, owned by a person; a webhook posts into one chat as an app.

/** What a token may do: `read` GET routes and receiving frames; `write` also sending and changing messages. */
export const tokenScopeSchema = z.enum(['read', 'write']);
export type TokenScope = z.infer<typeof tokenScopeSchema>;

/** Every token starts so: a server tells one from a session's token at a glance, and so can a secret scanner. */
export const API_TOKEN_PREFIX = 'prl_';
export const API_TOKEN_MAX_DAYS = 365;

/** POST /api/users/tokens/. */
export const apiTokenCreateSchema = z.object({
  name: z.string().trim().min(1, 'Give the token a name.').max(60, 'At most 60 characters.'),
  scopes: z.union([z.tuple([z.literal('read')]), z.tuple([z.literal('read'), z.literal('write')])], {
    error: "Scopes are ['read'] or ['read', 'write'].",
  }),
  expires_in_days: z.number().int().min(1).max(API_TOKEN_MAX_DAYS).nullable().optional(),
});
export type ApiTokenCreate = z.input<typeof apiTokenCreateSchema>;

export const apiTokenSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  scopes: z.array(tokenScopeSchema),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

/** The answer of POST /api/users/tokens/: the secret, this once. */
export const apiTokenCreatedSchema = apiTokenSchema.extend({ token: z.string() });
export type ApiTokenCreated = z.infer<typeof apiTokenCreatedSchema>;

export const apiTokenListSchema = z.object({ results: z.array(apiTokenSchema) });
export type ApiTokenList = z.infer<typeof apiTokenListSchema>;

export const TOKEN_TEXT = {
  /** A token presented to a route only a signed-in person may use (password, 2FA, sessions, tokens…). */
  signInRequired: 'Sign in to manage the account; an API token cannot.',
  /** A read token asked to change something. */
  readOnly: 'This token can only read.',
} as const;

/** Audit event types of integrations. */
export const INTEGRATION_AUDIT = {
  tokenCreated: 'token.created',
  tokenRevoked: 'token.revoked',
  botCreated: 'bot.created',
  botDeleted: 'bot.deleted',
  botRotated: 'bot.rotated',
  webhookCreated: 'webhook.created',
  webhookRevoked: 'webhook.revoked',
} as const;

/**
 * POST /api/chats/{chat_id}/messages/: a message sent over HTTP, with a chat_message frame's fields and rules;
 * client_id is required, so a retried request is answered with the message stored the first time.
 */
export const httpMessageSchema = sendFieldsSchema.extend({
  client_id: z.string().min(1, 'This field is required.').max(64),
});
export type HttpMessage = z.infer<typeof httpMessageSchema>;

// Bots.

/** A bot's username follows the people's rule; its name says what it is. */
export const botCreateSchema = z.object({
  username: z.string(),
  display_name: z.string().trim().min(1, 'Give the bot a name.').max(60, 'At most 60 characters.'),
  description: z.string().trim().max(500, 'At most 500 characters.').optional(),
  events_url: z.string().trim().max(2000).nullable().optional(),
  /** Whether people who never chatted with the bot may start a private chat with it. */
  open_to_all: z.boolean().optional(),
});
export type BotCreate = z.input<typeof botCreateSchema>;

export const botUpdateSchema = botCreateSchema.omit({ username: true }).partial();
export type BotUpdate = z.input<typeof botUpdateSchema>;

export const botSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  display_name: z.string(),
  description: z.string(),
  avatar: z.string().nullable(),
  events_url: z.string().nullable(),
  open_to_all: z.boolean(),
  created_at: z.string(),
});
export type Bot = z.infer<typeof botSchema>;

/** POST /api/bots/ and POST /api/bots/{id}/tokens/: its token (read+write) and signing secret, this once. */
export const botCredentialsSchema = z.object({
  bot: botSchema,
  token: z.string(),
  signing_secret: z.string(),
});
export type BotCredentials = z.infer<typeof botCredentialsSchema>;

export const botListSchema = z.object({ results: z.array(botSchema) });
export type BotList = z.infer<typeof botListSchema>;

export const botDeliverySchema = z.object({
  id: z.number().int(),
  message_id: z.number().int().nullable(),
  chat_id: z.string(),
  /** 1..4: the first try and three retries. */
  attempt: z.number().int(),
  /** 'delivered' (a 2xx), 'failed' (an answer or no answer; retried while attempts are left). */
  status: z.enum(['delivered', 'failed']),
  http_status: z.number().int().nullable(),
  error: z.string().nullable(),
  created_at: z.string(),
});
export type BotDelivery = z.infer<typeof botDeliverySchema>;
export const botDeliveryListSchema = z.object({ results: z.array(botDeliverySchema) });

/** The body POSTed to a bot's events_url. */
export const botEventSchema = z.object({
  type: z.literal('message'),
  chat_id: z.string(),
  message: z.unknown(),
});

export const BOT_TEXT = {
  noBots: 'Only site admins can create bots on this server.',
  badEventsUrl: 'Enter an https address.',
  notBot: 'Bots cannot sign in with a password.',
  /** Someone who never chatted with a closed bot tries a private chat with it. */
  closed: 'This bot only talks to people it already knows.',
} as const;

/** Headers of a signed POST to a bot. */
export const SIGNATURE_HEADER = 'X-Parley-Signature';
export const TIMESTAMP_HEADER = 'X-Parley-Timestamp';

// Incoming webhooks.

export const webhookCreateSchema = z.object({
  name: z.string().trim().min(1, 'Give the webhook a name.').max(60, 'At most 60 characters.'),
});
export type WebhookCreate = z.input<typeof webhookCreateSchema>;

export const webhookSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  created_at: z.string(),
  /** Who made it; null once their account is gone. */
  created_by: z.number().int().nullable(),
});
export type Webhook = z.infer<typeof webhookSchema>;
/** The answer of POST …/webhooks/: its URL, holding the secret, this once. */
export const webhookCreatedSchema = webhookSchema.extend({ url: z.string() });
export type WebhookCreated = z.infer<typeof webhookCreatedSchema>;
export const webhookListSchema = z.object({ results: z.array(webhookSchema) });
export type WebhookList = z.infer<typeof webhookListSchema>;

/** The longest text a webhook may post. */
export const WEBHOOK_MAX_TEXT = 4096;
/** Posts a minute per webhook. */
export const WEBHOOK_PER_MINUTE = 30;

/** What POST /hooks/{secret} accepts: Slack's `{text, username?, icon_url?}` or Parley's `{body}`. */
export const webhookPostSchema = z
  .object({
    text: z.string().optional(),
    body: z.string().optional(),
    username: z.unknown().optional(),
    icon_url: z.unknown().optional(),
  })
  .refine((p) => typeof (p.text ?? p.body) === 'string' && (p.text ?? p.body ?? '').trim() !== '', {
    error: 'Send {"text": "..."} or {"body": "..."}.',
  });

export const WEBHOOK_TEXT = {
  tooLong: `At most ${WEBHOOK_MAX_TEXT} characters.`,
  badPayload: 'Send {"text": "..."} or {"body": "..."}.',
  notFound: 'Webhook not found.',
  /** A plain member of a group asks to manage its hooks. */
  adminsOnly: 'Only the group owner and admins can manage webhooks.',
} as const;
