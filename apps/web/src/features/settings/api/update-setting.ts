import type { SettingsField, SettingsResponse } from '@parley/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';
import { t } from '../../../lib/i18n/i18n';
import { settingsQueryKey } from '../../../lib/queries/settings-query';
import { toast } from '../../../lib/ui/toast';

export interface SettingChange {
  field: SettingsField;
  value: boolean;
}

/** PUT /api/users/profile/settings/ with the one field that changed. */
export const updateSetting = ({ field, value }: SettingChange): Promise<SettingsResponse> =>
  api.put<SettingsResponse>('/users/profile/settings/', { [field]: value });

const mutationKey = ['settings', 'update'] as const;

/** SPEC §4: the switch moves at once, then the change is saved and the settings reloaded. */
export function useUpdateSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey,
    mutationFn: updateSetting,
    onMutate: async ({ field, value }) => {
      await queryClient.cancelQueries({ queryKey: settingsQueryKey });
      const previous = queryClient.getQueryData<SettingsResponse>(settingsQueryKey);
      if (previous) {
        queryClient.setQueryData<SettingsResponse>(settingsQueryKey, {
          ...previous,
          profile: { ...previous.profile, [field]: value },
        });
      }
      return { previous };
    },
    onSuccess: () => {
      toast.success(t('settings.updated'));
    },
    onError: (_error, _change, context) => {
      if (context?.previous) queryClient.setQueryData(settingsQueryKey, context.previous);
      toast.error(t('settings.updateFailed'));
    },
    // Reload once the last of several quick toggles settles, so a reload never undoes a newer toggle.
    onSettled: () =>
      queryClient.isMutating({ mutationKey }) === 1
        ? queryClient.invalidateQueries({ queryKey: settingsQueryKey })
        : undefined,
  });
}
