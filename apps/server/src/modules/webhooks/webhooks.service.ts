import {
  INTEGRATION_AUDIT,
  isAdminRole,
  type Message,
  WEBHOOK_MAX_TEXT,
  WEBHOOK_PER_MINUTE,
  WEBHOOK_TEXT,
  type Webhook,
  type WebhookCreate,
  type WebhookCreated,
  webhookPostSchema,
} from '@parley/protocol';
import type { Db } from '../../db/database';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../platform/errors';
import type { RateLimiter } from '../../platform/rate-limit';
import { enforceLimit } from '../../platform/rate-limit-policy';
import { base62Secret } from '../accounts/api-tokens.service';
import { hashToken } from '../accounts/session-hash';
import type { AuditService } from '../audit/audit.service';
import type { ChatMembership } from '../chats/chat-membership';
import type { MessagesService } from '../messages/messages.service';
import * as repo from './webhooks.repo';

interface Deps {
  db: Db;
  membership: Pick<ChatMembership, 'requireMember' | 'refByRowId'>;
  messages: Pick<MessagesService, 'postAsApp'>;
  audit: Pick<AuditService, 'record'>;
  limiter: RateLimiter;
}

const MINUTE_MS = 60_000;

const toWebhook = (row: repo.WebhookRow): Webhook => ({
  id: row.id,
  name: row.name,
  created_at: row.created_at,
  created_by: row.creator_id,
});

/**
 * Incoming webhooks: a chat's secret URLs that post into it as an app. The secret (256 random bits in base62)
 * is in the URL shown once; only its SHA-256 is stored. Either person of a private chat, or a group's owner and
 * admins, make, list and revoke them; a post is written by the messages module's writer like any message, so it
 * fans out, counts unread, notifies and is found by search. A hook whose chat is deleted goes with it.
 */
export class WebhooksService {
  constructor(private readonly deps: Deps) {}

  /** A new hook of the chat; its URL, under `baseUrl`, holds the secret this once. */
  async create(
    userId: number,
    chatId: string,
    input: WebhookCreate,
    baseUrl: string,
  ): Promise<WebhookCreated> {
    const chatDbId = await this.requireManager(userId, chatId);
    const secret = base62Secret();
    const row = await repo.insertWebhook(this.deps.db, {
      chat_id: chatDbId,
      creator_id: userId,
      name: input.name.trim(),
      secret_hash: hashToken(secret),
      created_at: new Date().toISOString(),
    });
    await this.deps.audit.record({
      type: INTEGRATION_AUDIT.webhookCreated,
      actor_id: userId,
      detail: { webhook_id: row.id, chat_id: chatId },
    });
    return { ...toWebhook(row), url: `${baseUrl}/hooks/${secret}` };
  }

  async list(userId: number, chatId: string): Promise<Webhook[]> {
    const chatDbId = await this.requireManager(userId, chatId);
    return (await repo.webhooksOf(this.deps.db, chatDbId)).map(toWebhook);
  }

  /** Revokes one of the chat's hooks: its URL answers 404 from now on. */
  async revoke(userId: number, chatId: string, webhookId: number): Promise<void> {
    const chatDbId = await this.requireManager(userId, chatId);
    if (!(await repo.deleteWebhookOf(this.deps.db, chatDbId, webhookId)))
      throw new NotFoundError(WEBHOOK_TEXT.notFound);
    await this.deps.audit.record({
      type: INTEGRATION_AUDIT.webhookRevoked,
      actor_id: userId,
      detail: { webhook_id: webhookId, chat_id: chatId },
    });
  }

  /**
   * A post to a hook's URL: Slack's `{text}` (its `username` and `icon_url` ignored, since a hook may neither
   * pose as a person nor hot-link a picture) or `{body}`. 404 for an unknown secret, 429 past
   * WEBHOOK_PER_MINUTE, 400 for a blank or too long text.
   */
  async post(secret: string, payload: unknown): Promise<Message> {
    const hook = await repo.webhookBySecretHash(this.deps.db, hashToken(secret));
    if (!hook) throw new NotFoundError(WEBHOOK_TEXT.notFound);
    await enforceLimit(this.deps.limiter, `hook:${hook.id}`, WEBHOOK_PER_MINUTE, MINUTE_MS);
    const parsed = webhookPostSchema.safeParse(payload);
    if (!parsed.success) throw new BadRequestError(WEBHOOK_TEXT.badPayload);
    const text = (parsed.data.text ?? parsed.data.body ?? '').trim();
    if (text.length > WEBHOOK_MAX_TEXT) throw new BadRequestError(WEBHOOK_TEXT.tooLong);
    // The chat is read again: a hook outliving its chat for a moment (deleted meanwhile) posts nowhere.
    const chat = await this.deps.membership.refByRowId(hook.chat_id).catch(() => {
      throw new NotFoundError(WEBHOOK_TEXT.notFound);
    });
    return this.deps.messages.postAsApp(chat, hook.name, text);
  }

  /** The chat's row id, when the caller may manage its hooks: either person of a private chat, a group's admins. */
  private async requireManager(userId: number, chatId: string): Promise<number> {
    const { chat, member } = await this.deps.membership.requireMember(userId, chatId);
    if (!chat.is_private && !isAdminRole(member.role)) throw new ForbiddenError(WEBHOOK_TEXT.adminsOnly);
    return chat.id;
  }
}
