import type { Posting, Visibility } from '@parley/protocol';
import { InfoNote } from '../../../components/ui/alert';
import { Switch } from '../../../components/ui/switch';
import { useT } from '../../../lib/i18n/i18n';

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
  const t = useT();
  return (
    <div className="border-t border-slate-100 pt-4 dark:border-slate-800">
      <fieldset>
        <legend className="text-sm font-semibold text-slate-900 dark:text-slate-100">
          {t('groups.channel.legend')}
        </legend>
        <div className="divide-y divide-slate-100 dark:divide-slate-800">
          <Switch
            label={t('groups.kind.public')}
            description={t('groups.channel.publicHint')}
            checked={value.visibility === 'public'}
            disabled={disabled}
            onChange={(on) => onChange({ ...value, visibility: on ? 'public' : 'private' })}
          />
          <Switch
            label={t('groups.kind.onlyAdmins')}
            description={t('groups.channel.adminsHint')}
            checked={value.posting === 'admins'}
            disabled={disabled}
            onChange={(on) => onChange({ ...value, posting: on ? 'admins' : 'everyone' })}
          />
        </div>
        {value.visibility === 'public' && !wasPublic && (
          <InfoNote className="mt-2">{t('groups.channel.goingPublic')}</InfoNote>
        )}
      </fieldset>
    </div>
  );
}
