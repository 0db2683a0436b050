import { useParams } from 'react-router';
import { ChatSettingsPage } from '../features/chat-settings/components/chat-settings-page';
import { GroupSettingsPage } from '../features/groups/components/group-settings-page';
import { WebhooksCard } from '../features/webhooks/components/webhooks-card';

// A chat's settings screens with the cards of other features composed in: its webhooks, which either person of
// a private chat and a group's admins manage.

export function ChatSettingsRoute() {
  const { chatId = '' } = useParams();
  return <ChatSettingsPage extra={<WebhooksCard key={chatId} chatId={chatId} />} />;
}

export function GroupSettingsRoute() {
  const { chatId = '' } = useParams();
  return <GroupSettingsPage adminCards={<WebhooksCard key={chatId} chatId={chatId} />} />;
}
