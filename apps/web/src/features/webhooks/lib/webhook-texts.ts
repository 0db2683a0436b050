import { WEBHOOK_TEXT } from '@parley/protocol';
import type { MessageId } from '../../../lib/i18n/i18n';
import { knowServerTexts } from '../../../lib/i18n/server-texts';

// The server's English texts the webhooks card meets (its name's checks, who may manage the hooks), with their
// catalog ids: known to the app's lookup once this code loads.

export const WEBHOOK_SERVER_TEXTS: ReadonlyArray<readonly [english: string, id: MessageId]> = [
  ['Give the webhook a name.', 'groups.webhooks.nameRequired'],
  ['At most 60 characters.', 'groups.webhooks.nameTooLong'],
  [WEBHOOK_TEXT.notFound, 'groups.webhooks.notFound'],
  [WEBHOOK_TEXT.adminsOnly, 'groups.webhooks.adminsOnly'],
];

knowServerTexts(WEBHOOK_SERVER_TEXTS);
