import type { SettingsField, SettingsResponse } from '@parley/protocol';
import { Card, CardHeader } from '../../../components/ui/card';
import { Switch } from '../../../components/ui/switch';
import { type MessageId, useT } from '../../../lib/i18n/i18n';
import {
  requestNotificationPermission,
  useNotificationPermission,
} from '../../../lib/notifications/permission';
import { useUpdateSetting } from '../api/update-setting';

interface SwitchSpec {
  field: SettingsField;
  label: MessageId;
  description: MessageId;
}

const PRIVACY: SwitchSpec[] = [
  {
    field: 'online_status',
    label: 'settings.onlineStatus.label',
    description: 'settings.onlineStatus.description',
  },
  {
    field: 'read_receipt',
    label: 'settings.readReceipts.label',
    description: 'settings.readReceipts.description',
  },
  {
    field: 'hide_profile',
    label: 'settings.hideProfile.label',
    description: 'settings.hideProfile.description',
  },
];
const NOTIFICATIONS: SwitchSpec[] = [
  { field: 'push_notification', label: 'settings.push.label', description: 'settings.push.description' },
  { field: 'email_notification', label: 'settings.email.label', description: 'settings.email.description' },
];

/** What the browser's own permission adds under Push Notifications while it is not 'granted'. */
const PUSH_PERMISSION_NOTE = {
  default: 'settings.push.browserAsks',
  denied: 'settings.push.blocked',
} as const satisfies Record<string, MessageId>;

export function SettingsSwitches({ profile }: { profile: SettingsResponse['profile'] }) {
  const t = useT();
  const update = useUpdateSetting();
  // Push Notifications shows what this browser will do: off while the browser has not allowed notifications
  // (blocked: off and locked, with why), and turning it on asks the browser first, from the click itself.
  const permission = useNotificationPermission();
  const browserNote = permission === 'default' || permission === 'denied' ? permission : null;
  const turnOnPush = async () => {
    if ((await requestNotificationPermission()) !== 'granted') return;
    // Already on at the server: this browser follows it now that it may.
    if (!profile.push_notification) update.mutate({ field: 'push_notification', value: true });
  };
  const change = (field: SettingsField, value: boolean) => {
    if (field === 'push_notification' && value && browserNote === 'default') void turnOnPush();
    else update.mutate({ field, value });
  };
  const group = (title: MessageId, description: MessageId, specs: SwitchSpec[]) => (
    <Card>
      <CardHeader title={t(title)} description={t(description)} />
      <div className="divide-y divide-slate-100 dark:divide-slate-800">
        {specs.map(({ field, label, description }) => {
          const note = field === 'push_notification' ? browserNote : null;
          const text = t(description);
          return (
            <Switch
              key={field}
              label={t(label)}
              description={note ? `${text} ${t(PUSH_PERMISSION_NOTE[note])}` : text}
              checked={profile[field] && !note}
              disabled={note === 'denied'}
              onChange={(value) => change(field, value)}
            />
          );
        })}
      </div>
    </Card>
  );
  return (
    <>
      {group('settings.privacy.title', 'settings.privacy.description', PRIVACY)}
      {group('settings.notifications.title', 'settings.notifications.description', NOTIFICATIONS)}
    </>
  );
}
