import type { SettingsField, SettingsResponse } from '@parley/protocol';
import { Card, CardHeader } from '../../../components/ui/card';
import { Switch } from '../../../components/ui/switch';
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

export function SettingsSwitches({ profile }: { profile: SettingsResponse['profile'] }) {
  const update = useUpdateSetting();
  const group = (title: string, description: string, specs: SwitchSpec[]) => (
    <Card>
      <CardHeader title={title} description={description} />
      <div className="divide-y divide-slate-100 dark:divide-slate-800">
        {specs.map(({ field, label, description: text }) => (
          <Switch
            key={field}
            label={label}
            description={text}
            checked={profile[field]}
            onChange={(value) => update.mutate({ field, value })}
          />
        ))}
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
