import { CHANNEL_TEXT, GROUP_INVITE_INVALID, WEBHOOK_TEXT } from '@parley/protocol';
import type { MessageId } from '../../../lib/i18n/i18n';
import { knowServerTexts } from '../../../lib/i18n/server-texts';

// The server's English texts the group screens meet beyond MSG (who may do what in a group, invite links, its
// members' roles), with their catalog ids: known to the app's lookup once this code loads. The channel
// directory, the join page and the webhooks card (other features) carry theirs themselves.

export const GROUP_SERVER_TEXTS: ReadonlyArray<readonly [english: string, id: MessageId]> = [
  [CHANNEL_TEXT.adminsOnly, 'room.join.adminsOnly'],
  [CHANNEL_TEXT.onlyAdmins, 'groups.server.onlyAdmins'],
  [CHANNEL_TEXT.onlyOwner, 'groups.server.onlyOwner'],
  [CHANNEL_TEXT.ownerStays, 'groups.server.ownerStays'],
  [CHANNEL_TEXT.notMember, 'groups.server.notMember'],
  [CHANNEL_TEXT.ownerIsYou, 'groups.server.ownerIsYou'],
  [GROUP_INVITE_INVALID, 'groups.invites.invalid'],
  [WEBHOOK_TEXT.adminsOnly, 'groups.webhooks.adminsOnly'],
  ['Chat not found.', 'groups.server.chatNotFound'],
  ['User not found.', 'groups.server.userNotFound'],
  ['This is a private chat, not a group.', 'groups.server.notAGroup'],
  ['The admin cannot be removed. Leave the group instead.', 'groups.server.adminStays'],
  ['The owner cannot be removed.', 'groups.server.ownerCannotGo'],
  ['Only the owner can remove an admin.', 'groups.server.ownerRemovesAdmins'],
  ['Group picture must be at most 2MB.', 'groups.avatar.serverTooLarge'],
];

knowServerTexts(GROUP_SERVER_TEXTS);
