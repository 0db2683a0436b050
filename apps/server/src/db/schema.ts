import type { AccountsTables } from '../modules/accounts/accounts.tables';
import type { AdminTables } from '../modules/admin/admin.tables';
import type { AttachmentsTables } from '../modules/attachments/attachments.tables';
import type { AuditTables } from '../modules/audit/audit.tables';
import type { BotsTables } from '../modules/bots/bots.tables';
import type { ChatsTables } from '../modules/chats/chats.tables';
import type { CommandsTables } from '../modules/commands/commands.tables';
import type { DataExportTables } from '../modules/data-export/data-export.tables';
import type { LinkPreviewsTables } from '../modules/link-previews/link-previews.tables';
import type { MessagesTables } from '../modules/messages/messages.tables';
import type { NotificationsTables } from '../modules/notifications/notifications.tables';
import type { PinsTables } from '../modules/pins/pins.tables';
import type { PollsTables } from '../modules/polls/polls.tables';
import type { RealtimeTables } from '../modules/realtime/realtime.tables';
import type { ReportsTables } from '../modules/reports/reports.tables';
import type { SafetyTables } from '../modules/safety/safety.tables';
import type { SavedTables } from '../modules/saved/saved.tables';
import type { WebhooksTables } from '../modules/webhooks/webhooks.tables';

// The whole database as Kysely sees it, composed from the tables each module owns and declares beside its repo
// (`<module>.tables.ts`). The table names are re-exported here for the code that imports them from db/.
export type { CodesTable, SessionsTable, UsersTable } from '../modules/accounts/accounts.tables';
export type { FilesTable, ServerSecretsTable } from '../modules/attachments/attachments.tables';
export type { ChatMembersTable, ChatsTable } from '../modules/chats/chats.tables';
export type { MessagesTable } from '../modules/messages/messages.tables';
export type {
  EmailDigestsTable,
  PushSubscriptionsTable,
} from '../modules/notifications/notifications.tables';
export type { SocketTicketsTable } from '../modules/realtime/realtime.tables';

export interface Database
  extends AccountsTables,
    ChatsTables,
    MessagesTables,
    RealtimeTables,
    AttachmentsTables,
    NotificationsTables,
    DataExportTables,
    SafetyTables,
    ReportsTables,
    AuditTables,
    BotsTables,
    CommandsTables,
    AdminTables,
    PinsTables,
    PollsTables,
    SavedTables,
    LinkPreviewsTables,
    WebhooksTables {}
