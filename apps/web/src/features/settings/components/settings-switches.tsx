import type { SettingsField, SettingsResponse } from '@parley/protocol';
import { Card, CardHeader } from '../../../components/ui/card';
import { Switch } from '../../../components/ui/switch';
import {
  requestNotificationPermission,
  useNotificationPermission,
} from '../../../lib/notifications/permission';
import { useUpdateSetting } from '../api/update-setting';

interface SwitchSpec {
  field: SettingsField;
  label: string;
  description: string;
}

const PRIVACY: SwitchSpec[] = [
  {
    field: 'online_status',
    label: 'Online Status',
    description: 'Let others see when you are online and last seen.',
  },
  {
    field: 'read_receipt',
    label: 'Read Receipts',
    description: 'Let others know when you have read their messages.',
  },
  {
    field: 'hide_profile',
    label: 'Hide Profile',
    description: 'Keep your profile private and off the home page.',
  },
];
const NOTIFICATIONS: SwitchSpec[] = [
  {
    field: 'push_notification',
    label: 'Push Notifications',
    description: 'Get notified about new messages.',
  },
  {
    field: 'email_notification',
    label: 'Email Notifications',
    description: 'Receive an email about unread messages.',
  },
];

/** What the browser's own permission adds under Push Notifications while it is not 'granted'. */
const PUSH_PERMISSION_NOTE = {
  default: 'Your browser will ask you to allow notifications.',
  denied:
    'Notifications are blocked for Parley in this browser. Allow them in the browser’s site settings to turn this on.',
} as const;

export function SettingsSwitches({ profile }: { profile: SettingsResponse['profile'] }) {
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
  const group = (title: string, description: string, specs: SwitchSpec[]) => (
    <Card>
      <CardHeader title={title} description={description} />
      <div className="divide-y divide-slate-100 dark:divide-slate-800">
        {specs.map(({ field, label, description: text }) => {
          const note = field === 'push_notification' ? browserNote : null;
          return (
            <Switch
              key={field}
              label={label}
              description={note ? `${text} ${PUSH_PERMISSION_NOTE[note]}` : text}
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
      {group('Privacy', 'Choose what others can see about you.', PRIVACY)}
      {group('Notifications', 'Choose how Parley reaches you.', NOTIFICATIONS)}
    </>
  );
}
