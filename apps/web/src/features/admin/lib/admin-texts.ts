import {
  AUDIT,
  GROUP_INVITE_AUDIT,
  INTEGRATION_AUDIT,
  type ReportReason,
  SAFETY_TEXT,
  SECURITY_AUDIT,
} from '@parley/protocol';
import type { MessageId } from '../../../lib/i18n/i18n';
import { knowServerTexts } from '../../../lib/i18n/server-texts';

// The console's fixed sets in the reader's language (audit event types, the keys of an event's details, report
// reasons), and the admin API's English refusals, known to the app's lookup once the console's code loads.

/** The admin API's English texts the console meets beyond MSG, with their catalog ids. */
export const ADMIN_SERVER_TEXTS: ReadonlyArray<readonly [english: string, id: MessageId]> = [
  ['No such person.', 'admin.error.noSuchPerson'],
  ['You cannot deactivate your own account here.', 'admin.error.notSelfDeactivate'],
  ['You cannot delete your own account here.', 'admin.error.notSelfDelete'],
  ['This account is already deactivated.', 'admin.error.alreadyDeactivated'],
  ['This account is not deactivated.', 'admin.error.notDeactivated'],
  [SAFETY_TEXT.alreadyResolved, 'admin.error.alreadyResolved'],
  ['This report is not about a message.', 'admin.error.notAboutMessage'],
  ['The reported account no longer exists.', 'admin.error.reportedGone'],
  ['Not a domain name.', 'admin.error.notDomain'],
  ['Name at least one email domain.', 'admin.error.noDomain'],
];

knowServerTexts(ADMIN_SERVER_TEXTS);

/** Every audit event type the server records, with its label's id. */
export const AUDIT_TYPE_IDS: Readonly<Record<string, MessageId>> = {
  [AUDIT.loginFailed]: 'admin.event.loginFailed',
  [AUDIT.loginLocked]: 'admin.event.loginLocked',
  [AUDIT.codeFailed]: 'admin.event.codeFailed',
  [AUDIT.codeLocked]: 'admin.event.codeLocked',
  [AUDIT.deactivatedLogin]: 'admin.event.deactivatedLogin',
  [AUDIT.ssoSignIn]: 'admin.event.ssoSignIn',
  [AUDIT.ssoFailed]: 'admin.event.ssoFailed',
  [AUDIT.adminGranted]: 'admin.event.adminGranted',
  [AUDIT.adminRevoked]: 'admin.event.adminRevoked',
  [AUDIT.userDeactivated]: 'admin.event.userDeactivated',
  [AUDIT.userReactivated]: 'admin.event.userReactivated',
  [AUDIT.userVerified]: 'admin.event.userVerified',
  [AUDIT.userUnverified]: 'admin.event.userUnverified',
  [AUDIT.userDeleted]: 'admin.event.userDeleted',
  [AUDIT.userSignedOut]: 'admin.event.userSignedOut',
  [AUDIT.reportResolved]: 'admin.event.reportResolved',
  [AUDIT.settingsChanged]: 'admin.event.settingsChanged',
  [AUDIT.inviteCreated]: 'admin.event.inviteCreated',
  [AUDIT.inviteRevoked]: 'admin.event.inviteRevoked',
  [SECURITY_AUDIT.sessionRevoked]: 'admin.event.sessionRevoked',
  [SECURITY_AUDIT.totpEnabled]: 'admin.event.totpEnabled',
  [SECURITY_AUDIT.totpDisabled]: 'admin.event.totpDisabled',
  [SECURITY_AUDIT.totpFailed]: 'admin.event.totpFailed',
  [SECURITY_AUDIT.totpLocked]: 'admin.event.totpLocked',
  [SECURITY_AUDIT.recoveryCodeUsed]: 'admin.event.recoveryCodeUsed',
  [SECURITY_AUDIT.exportCreated]: 'admin.event.exportCreated',
  [INTEGRATION_AUDIT.tokenCreated]: 'admin.event.tokenCreated',
  [INTEGRATION_AUDIT.tokenRevoked]: 'admin.event.tokenRevoked',
  [INTEGRATION_AUDIT.botCreated]: 'admin.event.botCreated',
  [INTEGRATION_AUDIT.botDeleted]: 'admin.event.botDeleted',
  [INTEGRATION_AUDIT.botRotated]: 'admin.event.botRotated',
  [INTEGRATION_AUDIT.webhookCreated]: 'admin.event.webhookCreated',
  [INTEGRATION_AUDIT.webhookRevoked]: 'admin.event.webhookRevoked',
  [GROUP_INVITE_AUDIT.created]: 'admin.event.groupInviteCreated',
  [GROUP_INVITE_AUDIT.revoked]: 'admin.event.groupInviteRevoked',
  'report.created': 'admin.event.reportCreated',
};

/** The keys an event's details hold, with their labels' ids; another key is shown as it is. */
export const DETAIL_KEY_IDS: Readonly<Record<string, MessageId>> = {
  username: 'admin.detail.username',
  note: 'admin.detail.note',
  by: 'admin.detail.by',
  ip: 'admin.detail.ip',
  reason: 'admin.detail.reason',
  created: 'admin.detail.created',
  first: 'admin.detail.first',
  report_id: 'admin.detail.reportId',
  action: 'admin.detail.action',
  message_id: 'admin.detail.messageId',
  invite_id: 'admin.detail.inviteId',
  expires_in_days: 'admin.detail.expiresInDays',
  expires_in_hours: 'admin.detail.expiresInHours',
  max_uses: 'admin.detail.maxUses',
  chat_id: 'admin.detail.chatId',
  export: 'admin.detail.export',
  webhook_id: 'admin.detail.webhookId',
  token_id: 'admin.detail.tokenId',
  scopes: 'admin.detail.scopes',
  sso: 'admin.detail.sso',
  sessions: 'admin.detail.sessions',
  current: 'admin.detail.current',
  others: 'admin.detail.others',
  left: 'admin.detail.left',
  until: 'admin.detail.until',
  purpose: 'admin.detail.purpose',
  signups: 'admin.detail.signups',
  domains: 'admin.detail.domains',
  bot_creators: 'admin.detail.botCreators',
};

/** A report reason's label id (English: protocol's REPORT_REASON_LABELS). */
export const REPORT_REASON_IDS: Readonly<Record<ReportReason, MessageId>> = {
  spam: 'admin.reason.spam',
  harassment: 'admin.reason.harassment',
  inappropriate: 'admin.reason.inappropriate',
  other: 'admin.reason.other',
};
