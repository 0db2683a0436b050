import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Db, DialectName } from './db/database';
import type { AccountSettingsService } from './modules/accounts/account-settings.service';
import type { ApiTokensService } from './modules/accounts/api-tokens.service';
import type { OidcService } from './modules/accounts/oidc.service';
import type { PasswordResetService } from './modules/accounts/password-reset.service';
import type { SessionService } from './modules/accounts/session.service';
import type { SignInService } from './modules/accounts/sign-in.service';
import type { SignUpService } from './modules/accounts/sign-up.service';
import type { TwoFactorService } from './modules/accounts/two-factor.service';
import type { UsersService } from './modules/accounts/users.service';
import type { AdminService } from './modules/admin/admin.service';
import type { SiteSettingsService } from './modules/admin/site-settings.service';
import type { AttachmentsService } from './modules/attachments/attachments.service';
import type { AuditService } from './modules/audit/audit.service';
import type { BotEvents } from './modules/bots/bot-events';
import type { BotsService } from './modules/bots/bots.service';
import type { ChatMembership } from './modules/chats/chat-membership';
import type { ChatsService } from './modules/chats/chats.service';
import type { GroupsService } from './modules/chats/groups.service';
import type { GroupInvitesService } from './modules/chats/invites.service';
import type { BotCommandsService } from './modules/commands/bot-commands.service';
import type { CommandsService } from './modules/commands/commands.service';
import type { DataExportService } from './modules/data-export/data-export.service';
import type { LinkPreviewsService } from './modules/link-previews/link-previews.service';
import type { MessagesService } from './modules/messages/messages.service';
import type { EmailDigestService } from './modules/notifications/email-digest.service';
import type { PushService } from './modules/notifications/push.service';
import type { PinsService } from './modules/pins/pins.service';
import type { PollsService } from './modules/polls/polls.service';
import type { ProfilesService } from './modules/profiles/profiles.service';
import type { Hub } from './modules/realtime/hub';
import type { RealtimeService } from './modules/realtime/realtime.service';
import type { TicketService } from './modules/realtime/ticket.service';
import type { ReportsService } from './modules/reports/reports.service';
import type { BlocksService } from './modules/safety/blocks.service';
import type { SavedService } from './modules/saved/saved.service';
import type { SearchService } from './modules/search/search.service';
import type { WebhooksService } from './modules/webhooks/webhooks.service';
import type { AvatarStore } from './platform/avatars';
import type { Bus } from './platform/bus';
import type { DomainEvents } from './platform/events';
import type { Lifecycle } from './platform/lifecycle';
import type { Mailer } from './platform/mail';
import type { Metrics } from './platform/metrics';
import type { Presence } from './platform/presence';
import type { RateLimiter } from './platform/rate-limit';
import type { RoomPresence } from './platform/room-presence';
import type { FileStorage } from './platform/storage';

/** The one dependency container, built once in app.ts and handed to every module. */
export interface AppContext {
  config: Config;
  lifecycle: Lifecycle;
  /** Prometheus metrics, collected only when they are served (METRICS_TOKEN / METRICS_PORT). */
  metrics: Metrics | null;
  log: FastifyBaseLogger;
  db: Db;
  dialect: DialectName;
  mailer: Mailer;
  limiter: RateLimiter;
  /** The per-person chat message limit: the same counts, decided without a round trip far from the limit. */
  messageLimiter: RateLimiter;
  events: DomainEvents;
  presence: Presence;
  sessions: SessionService;
  /** Bots people own (users with is_bot), and the events POSTed to them. */
  bots: BotsService;
  botEvents: BotEvents;
  /** Personal access tokens (and bots' tokens): verified by SessionService as sessions with scopes. */
  apiTokens: ApiTokensService;
  users: UsersService;
  /** Accounts by job: sign-up, sign-in, a forgotten password, and a person's own settings. */
  signUp: SignUpService;
  signIn: SignInService;
  /** Single sign-on through the OpenID provider, or null when none is configured. */
  oidc: OidcService | null;
  passwordReset: PasswordResetService;
  accountSettings: AccountSettingsService;
  /** Two-step sign-in: its factor and recovery codes are accounts' tables. */
  twoFactor: TwoFactorService;
  chats: ChatsService;
  membership: ChatMembership;
  messages: MessagesService;
  attachments: AttachmentsService;
  groups: GroupsService;
  /** Group invite links. */
  groupInvites: GroupInvitesService;
  bus: Bus;
  hub: Hub;
  rooms: RoomPresence;
  tickets: TicketService;
  realtime: RealtimeService;
  storage: FileStorage;
  avatars: AvatarStore;
  push: PushService;
  emailDigests: EmailDigestService;
  profiles: ProfilesService;
  search: SearchService;
  /** "Export my data": modules/data-export. */
  dataExports: DataExportService;
  /** The audit log: admin actions and security events. */
  audit: AuditService;
  /** Blocks between people: modules/safety. */
  blocks: BlocksService;
  /** Reports of messages and people; the admin API reads and resolves them here. */
  reports: ReportsService;
  /** Server settings: who may sign up, invite links. */
  siteSettings: SiteSettingsService;
  /** The site admin's actions on people, and the console's totals. */
  admin: AdminService;
  /** Link previews' cache, fetching and pictures: modules/link-previews. */
  linkPreviews: LinkPreviewsService;
  /** Slash commands in a chat: built-ins and the commands of its bots (modules/commands). */
  commands: CommandsService;
  /** The commands bots' owners register for them. */
  botCommands: BotCommandsService;
  /** Pinned messages: modules/pins. */
  pins: PinsService;
  /** Polls: votes and closing (a poll is sent and shown as a message): modules/polls. */
  polls: PollsService;
  /** Each person's saved messages: modules/saved. */
  saved: SavedService;
  /** A chat's incoming webhooks, and what they post: modules/webhooks. */
  webhooks: WebhooksService;
}
