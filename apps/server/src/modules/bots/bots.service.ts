import {
  BOT_TEXT,
  type Bot,
  type BotCreate,
  type BotCredentials,
  type BotDelivery,
  type BotUpdate,
  INTEGRATION_AUDIT,
  MSG,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  usernameSchema,
} from '@parley/protocol';
import type { Db } from '../../db/database';
import { FieldsError, ForbiddenError, NotFoundError } from '../../platform/errors';
import type { DomainEvents } from '../../platform/events';
import { resolvesToPublic } from '../../platform/public-address';
import type { AccountSettingsService } from '../accounts/account-settings.service';
import { type ApiTokensService, base62Secret } from '../accounts/api-tokens.service';
import type { SecretBox } from '../accounts/secret-box';
import { avatarUrl } from '../accounts/user-view';
import type { UserCard, UsersService } from '../accounts/users.service';
import type { AuditService } from '../audit/audit.service';
import * as repo from './bots.repo';
import { signatureOf } from './signature';

export interface BotsConfig {
  /** http and loopback or private addresses allowed for events and commands (tests only). */
  eventsAllowPrivateHosts: boolean;
}

/** Who may create bots, a site setting the admin module keeps (handed over in services.ts). */
export interface BotCreatorsPolicy {
  botsForAdminsOnly(): Promise<boolean>;
}

interface Deps {
  db: Db;
  config: BotsConfig;
  creators: BotCreatorsPolicy;
  events: DomainEvents;
  users: UsersService;
  tokens: Pick<ApiTokensService, 'mint' | 'revokeAllOf'>;
  /** Seals signing secrets, each bound to its bot. */
  box: SecretBox;
  audit: Pick<AuditService, 'record'>;
  /** A bot deleted goes the way of a deleted account: its sessions, memberships and name. */
  accounts: Pick<AccountSettingsService, 'deleteAccount'>;
}

/** The name a bot's first (and every rotated) token is listed under. */
const TOKEN_NAME = 'Bot token';

const toBot = (row: repo.BotRow, card: UserCard): Bot => ({
  id: row.user_id,
  username: card.username,
  display_name: card.displayname,
  description: row.description,
  avatar: avatarUrl(card.avatar),
  events_url: row.events_url,
  open_to_all: row.open_to_all === 1,
  created_at: row.created_at,
});

/**
 * Bots: users with is_bot that a person owns. Creating one makes its user row, a read+write token and a signing
 * secret (both shown once); rotating replaces both. Where its events go is checked like a Web Push endpoint.
 */
export class BotsService {
  constructor(private readonly deps: Deps) {
    // A person's bots go with their account.
    deps.events.on('user.deleted', async ({ userId }) => {
      for (const bot of await repo.botsOwnedBy(deps.db, userId))
        await deps.accounts.deleteAccount(bot.user_id);
    });
  }

  async create(ownerId: number, input: BotCreate): Promise<BotCredentials> {
    const [owner] = await this.deps.users.cards([ownerId]);
    if (!owner || owner.is_bot) throw new ForbiddenError();
    if ((await this.deps.creators.botsForAdminsOnly()) && !(await this.deps.users.isSiteAdmin(ownerId)))
      throw new ForbiddenError(BOT_TEXT.noBots);
    const username = usernameSchema.safeParse(input.username.trim());
    if (!username.success) throw new FieldsError({ username: [username.error.issues[0]?.message ?? ''] });
    if (await this.deps.users.findByUsername(username.data))
      throw new FieldsError({ username: [MSG.usernameTaken] });
    const eventsUrl = await this.checkedEventsUrl(input.events_url);
    const secret = `whsec_${base62Secret()}`;
    const created = await this.deps.db.transaction().execute(async (trx) => {
      const botId = await this.deps.users.createBot(
        { username: username.data, name: input.display_name },
        trx,
      );
      await repo.insertBot(trx, {
        user_id: botId,
        owner_id: ownerId,
        description: input.description ?? '',
        events_url: eventsUrl,
        signing_secret: this.deps.box.seal(secret, botId),
        open_to_all: input.open_to_all ? 1 : 0,
        created_at: new Date().toISOString(),
      });
      const token = await this.deps.tokens.mint(botId, TOKEN_NAME, ['read', 'write'], null, trx);
      return { botId, token: token.token };
    });
    await this.deps.audit.record({
      type: INTEGRATION_AUDIT.botCreated,
      actor_id: ownerId,
      target_id: created.botId,
    });
    return { bot: await this.view(ownerId, created.botId), token: created.token, signing_secret: secret };
  }

  async list(ownerId: number): Promise<Bot[]> {
    const rows = await repo.botsOwnedBy(this.deps.db, ownerId);
    const cards = new Map((await this.deps.users.cards(rows.map((r) => r.user_id))).map((c) => [c.id, c]));
    return rows.flatMap((r) => {
      const card = cards.get(r.user_id);
      return card ? [toBot(r, card)] : [];
    });
  }

  async view(ownerId: number, botId: number): Promise<Bot> {
    const row = await this.owned(ownerId, botId);
    const [card] = await this.deps.users.cards([botId]);
    if (!card) throw new NotFoundError();
    return toBot(row, card);
  }

  async update(ownerId: number, botId: number, input: BotUpdate): Promise<Bot> {
    await this.owned(ownerId, botId);
    await repo.updateBot(this.deps.db, botId, {
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.events_url !== undefined
        ? { events_url: await this.checkedEventsUrl(input.events_url) }
        : {}),
      ...(input.open_to_all !== undefined ? { open_to_all: input.open_to_all ? 1 : 0 } : {}),
    });
    if (input.display_name !== undefined) await this.deps.users.renameBot(botId, input.display_name);
    return this.view(ownerId, botId);
  }

  async remove(ownerId: number, botId: number): Promise<void> {
    await this.owned(ownerId, botId);
    await this.deps.accounts.deleteAccount(botId);
    await this.deps.audit.record({ type: INTEGRATION_AUDIT.botDeleted, actor_id: ownerId, target_id: botId });
  }

  /** A new token and signing secret; the old ones stop working at once (its sockets close everywhere). */
  async rotate(ownerId: number, botId: number): Promise<BotCredentials> {
    await this.owned(ownerId, botId);
    const secret = `whsec_${base62Secret()}`;
    const token = await this.deps.db.transaction().execute(async (trx) => {
      await this.deps.tokens.revokeAllOf(botId, trx);
      await repo.updateBot(trx, botId, { signing_secret: this.deps.box.seal(secret, botId) });
      return this.deps.tokens.mint(botId, TOKEN_NAME, ['read', 'write'], null, trx);
    });
    await this.deps.audit.record({ type: INTEGRATION_AUDIT.botRotated, actor_id: ownerId, target_id: botId });
    return { bot: await this.view(ownerId, botId), token: token.token, signing_secret: secret };
  }

  async deliveries(ownerId: number, botId: number): Promise<BotDelivery[]> {
    await this.owned(ownerId, botId);
    return (await repo.deliveriesOf(this.deps.db, botId)).map((d) => ({
      id: d.id,
      message_id: d.message_id,
      chat_id: d.chat_id,
      attempt: d.attempt,
      status: d.status,
      http_status: d.http_status,
      error: d.error,
      created_at: d.created_at,
    }));
  }

  /** Of these users, the bots that take events, with their address. */
  async eventTargets(userIds: number[]): Promise<{ botId: number; url: string }[]> {
    return (await repo.botsAmong(this.deps.db, userIds)).flatMap((b) =>
      b.events_url ? [{ botId: b.user_id, url: b.events_url }] : [],
    );
  }

  /** The headers that sign a body POSTed to a bot (its events, its commands). */
  async signedHeaders(botId: number, rawBody: string): Promise<Record<string, string>> {
    const row = await repo.botById(this.deps.db, botId);
    if (!row) throw new NotFoundError();
    const timestamp = String(Math.floor(Date.now() / 1000));
    const secret = this.deps.box.open(row.signing_secret, botId);
    return { [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: signatureOf(secret, timestamp, rawBody) };
  }

  recordDelivery(row: Omit<repo.DeliveryRow, 'id'>): Promise<void> {
    return repo.recordDelivery(this.deps.db, row);
  }

  /**
   * Why a person may not start a private chat with this user, or null: a bot talks only to its owner and to
   * people it wrote to first, unless its owner opened it to all (the chats module asks, as a PrivateChatGate).
   */
  async refusal(userId: number, otherId: number): Promise<string | null> {
    const bot = await repo.botById(this.deps.db, otherId);
    if (!bot || bot.open_to_all || bot.owner_id === userId) return null;
    return BOT_TEXT.closed;
  }

  private async owned(ownerId: number, botId: number): Promise<repo.BotRow> {
    const row = await repo.botById(this.deps.db, botId);
    if (!row || row.owner_id !== ownerId) throw new NotFoundError('Bot not found.');
    return row;
  }

  /** A bot's events address, checked (acceptableBotUrl); empty clears it. */
  private async checkedEventsUrl(raw: string | null | undefined): Promise<string | null> {
    const value = raw?.trim();
    if (!value) return null;
    const url = await acceptableBotUrl(value, this.deps.config.eventsAllowPrivateHosts);
    if (!url) throw new FieldsError({ events_url: [BOT_TEXT.badEventsUrl] });
    return url;
  }
}

/**
 * An address a bot gives Parley to POST to (its events, a command's): https to a name that resolves to public
 * addresses only, as a Web Push endpoint, and checked again as each POST connects (guardedPost). Tests may allow
 * http and local addresses. null when it may not be used.
 */
export async function acceptableBotUrl(raw: string, allowPrivate: boolean): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  const schemeOk = url.protocol === 'https:' || (allowPrivate && url.protocol === 'http:');
  if (!schemeOk || url.username || url.password) return null;
  const hostOk = allowPrivate || (await resolvesToPublic(url.hostname).catch(() => false));
  return hostOk ? url.toString() : null;
}
