import type { Posting, Visibility } from '@parley/protocol';
import { InfoNote } from '../../../components/ui/alert';
import { Switch } from '../../../components/ui/switch';

export interface ChannelSettings {
  visibility: Visibility;
  posting: Posting;
}

/**
 * The channel settings of the group form: whether it is a public channel (listed in the directory, open to
 * anyone to read and join) and whether only the admins post (an announcement channel). Turning a private group
 * public says first what that opens up.
 */
export function ChannelSwitches({
  value,
  wasPublic,
  disabled,
  onChange,
}: {
  value: ChannelSettings;
  /** The group is public already: no warning about its history. */
  wasPublic: boolean;
  disabled?: boolean;
  onChange: (value: ChannelSettings) => void;
}) {
  return (
    <div className="border-t border-slate-100 pt-4 dark:border-slate-800">
      <fieldset>
        <legend className="text-sm font-semibold text-slate-900 dark:text-slate-100">Channel settings</legend>
        <div className="divide-y divide-slate-100 dark:divide-slate-800">
          <Switch
            label="Public channel"
            description="Listed in Browse channels: anyone signed in can read it and join."
            checked={value.visibility === 'public'}
            disabled={disabled}
            onChange={(on) => onChange({ ...value, visibility: on ? 'public' : 'private' })}
          />
          <Switch
            label="Only admins can post"
            description="An announcement channel: members read and react."
            checked={value.posting === 'admins'}
            disabled={disabled}
            onChange={(on) => onChange({ ...value, posting: on ? 'admins' : 'everyone' })}
          />
        </div>
        {value.visibility === 'public' && !wasPublic && (
          <InfoNote className="mt-2">
            Once saved, anyone signed in can find this group and read its messages, the earlier ones too.
          </InfoNote>
        )}
      </fieldset>
    </div>
  );
}
