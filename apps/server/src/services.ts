import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { AppContext } from './context';
import { createDb } from './db/database';
import { migrateToLatest } from './db/migrate';
import { AccountSettingsService } from './modules/accounts/account-settings.service';
import { ApiTokensService } from './modules/accounts/api-tokens.service';
import { CodeService } from './modules/accounts/code.service';
import { OidcService, ssoSiteView } from './modules/accounts/oidc.service';
import { OidcClient } from './modules/accounts/oidc-client';
import { PasswordResetService } from './modules/accounts/password-reset.service';
import { Passwords } from './modules/accounts/passwords';
import { SecretBox } from './modules/accounts/secret-box';
import { SESSION_TIMINGS, SessionService } from './modules/accounts/session.service';
import { SignInService } from './modules/accounts/sign-in.service';
import { SignUpService } from './modules/accounts/sign-up.service';
import { TwoFactorService } from './modules/accounts/two-factor.service';
import { UsersService } from './modules/accounts/users.service';
import { AccountActionsService } from './modules/admin/account-actions.service';
import { AdminService } from './modules/admin/admin.service';
import { SiteSettingsService } from './modules/admin/site-settings.service';
import { AttachmentsService } from './modules/attachments/attachments.service';
import { UrlSigner } from './modules/attachments/url-signer';
import { AuditService } from './modules/audit/audit.service';
import { BotEvents } from './modules/bots/bot-events';
import { BotsService } from './modules/bots/bots.service';
import { ChatMembership } from './modules/chats/chat-membership';
import { ChatsService } from './modules/chats/chats.service';
import { GroupsService } from './modules/chats/groups.service';
import { GroupInvitesService } from './modules/chats/invites.service';
import { BotCommandsService } from './modules/commands/bot-commands.service';
import { CommandsService } from './modules/commands/commands.service';
import { DataExportService } from './modules/data-export/data-export.service';
import { LinkPreviewsService } from './modules/link-previews/link-previews.service';
import { MessageStats } from './modules/messages/message-stats';
import { MessagesService } from './modules/messages/messages.service';
import { EmailDigestService } from './modules/notifications/email-digest.service';
import { PushService } from './modules/notifications/push.service';
import { loadVapidKeys } from './modules/notifications/vapid';
import { PinsService } from './modules/pins/pins.service';
import { PollsService } from './modules/polls/polls.service';
import { ProfilesService } from './modules/profiles/profiles.service';
import { Hub, SocketSweep } from './modules/realtime/hub';
import { RealtimeService } from './modules/realtime/realtime.service';
import { TicketService } from './modules/realtime/ticket.service';
import { ReportsService } from './modules/reports/reports.service';
import { BlocksService } from './modules/safety/blocks.service';
import { SavedService } from './modules/saved/saved.service';
import { SearchService } from './modules/search/search.service';
import { WebhooksService } from './modules/webhooks/webhooks.service';
import { AvatarStore } from './platform/avatars';
import { MemoryBus } from './platform/bus';
import { DomainEvents } from './platform/events';
import { Lifecycle } from './platform/lifecycle';
import { LocalFirstRateLimiter } from './platform/local-first-rate-limit';
import { createMailer } from './platform/mail';
import { Metrics } from './platform/metrics';
import { MemoryPresence } from './platform/presence';
import { MemoryRateLimiter } from './platform/rate-limit';
import { RedisBus } from './platform/redis/redis-bus';
import { RedisPresence, RedisPresenceStore, RedisRoomPresence } from './platform/redis/redis-presence';
import { RedisRateLimiter } from './platform/redis/redis-rate-limit';
import { MemoryRoomPresence } from './platform/room-presence';
import { openStorage } from './platform/storage-url';

/**
 * The database (migrated) and every service, wired once: the AppContext. With REDIS_URL, fan-out, presence and
 * rate limits are shared by every process; otherwise they live in this one.
 */
export async function buildContext(config: Config, log: FastifyBaseLogger) {
  // Collected only when served (METRICS_TOKEN or METRICS_PORT): otherwise the hot paths pay nothing for them.
  const served = config.metricsToken !== null || config.metricsPort !== null;
  const metrics = served ? new Metrics(() => ctx.hub.openSockets()) : null;
  const observe = metrics ?? undefined;
  const { db, dialect, commitsElsewhere, writes } = createDb(
    config,
    metrics ? (ms, failed) => metrics.statementTook(ms, failed) : undefined,
    log,
  );
  await migrateToLatest(db, dialect, config.databaseSchema);

  const events = new DomainEvents();
  const mailer = createMailer(config, log, metrics ? (ok) => metrics.mailSent(ok) : undefined);
  // One process by default; with REDIS_URL, fan-out, presence and rate limits are shared by every process.
  const presenceStore = config.redisUrl ? new RedisPresenceStore(config.redisUrl, log) : null;
  const redisLimiter = config.redisUrl ? new RedisRateLimiter(config.redisUrl, log) : null;
  const limiter = redisLimiter ?? new MemoryRateLimiter();
  // Chat messages are counted in Redis too, but far from the limit let through without waiting for it.
  const messageLimiter = redisLimiter ? new LocalFirstRateLimiter(redisLimiter) : limiter;
  const presence = presenceStore ? new RedisPresence(presenceStore) : new MemoryPresence();
  const audit = new AuditService(db);
  const apiTokens = new ApiTokensService({ db, events, audit });
  const sessions = new SessionService({ db, events, audit, timings: SESSION_TIMINGS, tokens: apiTokens });
  const users = new UsersService(db);
  const siteSettings = new SiteSettingsService({
    db,
    audit,
    publicUrl: config.publicUrl,
    signIn: ssoSiteView(config.oidc),
  });
  const codes = new CodeService({ db, audit });
  const box = await SecretBox.load(db);
  const twoFactor = new TwoFactorService({ db, box, audit });
  const passwords = new Passwords(config.argonMemoryKiB);
  const accountSettings = new AccountSettingsService({
    log,
    db,
    mailer,
    limiter,
    events,
    presence,
    codes,
    twoFactor,
  });
  const bus = config.redisUrl ? new RedisBus(config.redisUrl, observe, log) : new MemoryBus();
  const rooms = presenceStore ? new RedisRoomPresence(presenceStore) : new MemoryRoomPresence();
  const storage = await openStorage(config.storage, config.s3);
  const avatars = new AvatarStore(storage, log);
  const signer = new UrlSigner(db);
  await signer.init();
  const attachments = new AttachmentsService({
    db,
    storage,
    signer,
    events,
    log: log,
    tempDir: path.join(config.dataDir, 'tmp', 'uploads'),
  });
  const linkPreviews = new LinkPreviewsService({ db, storage, log, config });
  const lifecycle = new Lifecycle();
  const stats = new MessageStats(db);
  const membership = new ChatMembership(db);
  const blocks = new BlocksService({ db, bus, users, events, log });
  const bots = new BotsService({
    db,
    config,
    creators: siteSettings,
    events,
    users,
    tokens: apiTokens,
    box,
    audit,
    accounts: accountSettings,
  });
  const chats = new ChatsService({
    db,
    membership,
    events,
    presence,
    users,
    activity: stats,
    blocks,
    gate: bots,
  });
  const polls = new PollsService({ db, events, membership });
  const messages = new MessagesService({
    db,
    events,
    membership,
    users,
    attachments,
    stats,
    log,
    metrics: observe,
    blocks,
    commitsElsewhere,
    chatNames: (userId, chatDbIds) => chats.summaries(userId, chatDbIds),
    lifecycle,
    previews: linkPreviews,
    polls,
  });
  const profiles = new ProfilesService({ users, presence, avatars, events, messages, log: log, blocks });
  const groups = new GroupsService({
    db,
    events,
    chats,
    announcer: messages,
    users,
    avatars,
    attachments,
    writes,
  });
  const botCommands = new BotCommandsService({
    db,
    bots,
    allowPrivateHosts: config.eventsAllowPrivateHosts,
  });
  const ctx: AppContext = {
    config,
    lifecycle,
    metrics,
    log: log,
    db,
    dialect,
    mailer,
    limiter,
    messageLimiter,
    events,
    presence,
    sessions,
    apiTokens,
    users,
    signUp: new SignUpService({
      log,
      db,
      dialect,
      mailer,
      limiter,
      passwords,
      codes,
      sessions,
      audit,
      signupGate: siteSettings,
      ssoOnly: config.oidc?.only ? config.oidc.name : null,
    }),
    signIn: new SignInService({
      db,
      limiter,
      passwords,
      sessions,
      audit,
      twoFactor,
      ssoOnly: config.oidc?.only ? config.oidc.name : null,
    }),
    oidc: config.oidc
      ? new OidcService({
          db,
          log,
          settings: config.oidc,
          client: new OidcClient(config.oidc),
          passwords,
          sessions,
          audit,
          twoFactor,
          signupGate: siteSettings,
          firstAdmin: { becomeFirstAdmin: (trx, userId) => ctx.signUp.becomeFirstAdmin(trx, userId) },
        })
      : null,
    passwordReset: new PasswordResetService({ log, db, mailer, limiter, passwords, codes, sessions }),
    accountSettings,
    twoFactor,
    chats,
    membership,
    messages,
    attachments,
    groups,
    groupInvites: new GroupInvitesService({ db, events, chats, announcer: messages, users, audit, limiter }),
    bus,
    hub: new Hub({ bus, metrics: observe }),
    rooms,
    tickets: new TicketService({ db, sessions }),
    realtime: new RealtimeService({
      bus,
      events,
      chats,
      messages,
      rooms,
      presence,
      users,
      log: log,
      blocks,
      lifecycle,
    }),
    storage,
    avatars,
    push: new PushService({
      config,
      db,
      events,
      rooms,
      log: log,
      vapid: await loadVapidKeys(config.dataDir),
      metrics: observe,
    }),
    emailDigests: new EmailDigestService({
      config,
      db,
      events,
      presence,
      rooms,
      chats,
      messages,
      users,
      mailer,
      log: log,
    }),
    profiles,
    search: new SearchService({ db, dialect, chats, messages, users, profiles }),
    dataExports: new DataExportService({
      config,
      db,
      storage,
      mailer,
      limiter,
      events,
      audit,
      accounts: accountSettings,
      users,
      avatars,
      chats,
      messages,
      attachments,
      log,
      tempDir: path.join(config.dataDir, 'tmp', 'exports'),
    }),
    blocks,
    reports: new ReportsService({ db, limiter, users, messages, audit }),
    audit,
    siteSettings,
    admin: new AdminService({
      log,
      users,
      sessions,
      deleteAccount: (userId) => accountSettings.deleteAccount(userId),
      actions: new AccountActionsService({ db, users, audit }),
      reports: () => ctx.reports,
      deleteMessage: (chatId, messageId) => messages.changes.deleteByOperator(chatId, messageId),
      presence,
      storage,
      stats,
      audit,
    }),
    linkPreviews,
    bots,
    botEvents: new BotEvents({
      events,
      bots,
      log,
      options: { ...config.botEvents, allowPrivateHosts: config.eventsAllowPrivateHosts },
    }),
    botCommands,
    commands: new CommandsService({
      chats,
      groups,
      messages,
      users,
      botCommands,
      bots,
      messageLimiter,
      messageRateLimit: config.messageRateLimit,
      allowPrivateHosts: config.eventsAllowPrivateHosts,
    }),
    pins: new PinsService({ db, dialect, events, lifecycle, log, chats, messages, users }),
    polls,
    saved: new SavedService({ db, chats, messages }),
    webhooks: new WebhooksService({ db, membership, messages, audit, limiter }),
  };
  await ctx.admin.announce();
  const sweep = new SocketSweep({ hub: ctx.hub, sessions, log, intervalMs: config.socketPingMs }).start();
  sessions.startSweeping(log);
  ctx.dataExports.startSweeping(log);
  linkPreviews.startSweeping(log);

  return { ctx, sweep };
}

/** Stops the context's timers and closes its connections, the database last. */
export async function closeContext(ctx: AppContext, sweep: SocketSweep): Promise<void> {
  await sweep.stop();
  await ctx.sessions.stop();
  await ctx.dataExports.stop();
  await ctx.linkPreviews.stop();
  await ctx.botEvents.stop();
  ctx.realtime.close();
  ctx.messages.close();
  await ctx.emailDigests.stop();
  await ctx.blocks.close();
  await ctx.bus.close();
  await ctx.presence.close();
  if (ctx.messageLimiter !== ctx.limiter) await ctx.messageLimiter.close();
  await ctx.limiter.close();
  await ctx.mailer.close();
  ctx.storage.close();
  await ctx.db.destroy();
  ctx.metrics?.close();
}
