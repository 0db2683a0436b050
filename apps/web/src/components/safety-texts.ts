import { SAFETY_TEXT } from '@parley/protocol';
import type { MessageId } from '../lib/i18n/i18n';
import { knowServerTexts } from '../lib/i18n/server-texts';

// The server's English texts of blocking, reporting and muting (the shared Block button, Report dialog and mute
// control), with their catalog ids: known to the app's lookup once one of them loads.

export const SAFETY_SERVER_TEXTS: ReadonlyArray<readonly [english: string, id: MessageId]> = [
  [SAFETY_TEXT.cannotBlockSelf, 'groups.block.self'],
  [SAFETY_TEXT.muteInPast, 'groups.mute.inPast'],
  [SAFETY_TEXT.reported, 'groups.report.sent'],
  [SAFETY_TEXT.alreadyReported, 'groups.report.already'],
  [SAFETY_TEXT.tooManyReports, 'groups.report.tooMany'],
  [SAFETY_TEXT.cannotReportSelf, 'groups.report.self'],
  ['This message cannot be reported.', 'groups.report.cannotMessage'],
  ['Chat not found.', 'groups.server.chatNotFound'],
  ['User not found.', 'groups.server.userNotFound'],
];

knowServerTexts(SAFETY_SERVER_TEXTS);
