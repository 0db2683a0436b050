import type { SettingsResponse } from '@parley/protocol';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../http/api-client';
import { followAccount } from '../i18n/i18n';

// Shared, not the settings feature's: the settings screen edits this cache and the notification channel reads
// its Push Notifications switch, and one feature never imports another.

/** GET /api/users/profile/settings/ → {user, profile, pending_email, language}; the app follows the language. */
export async function getSettings(): Promise<SettingsResponse> {
  const settings = await api.get<SettingsResponse>('/users/profile/settings/');
  void followAccount(settings.language ?? null).catch(() => undefined);
  return settings;
}

export const settingsQueryKey = ['settings'] as const;

export const settingsQueryOptions = () => queryOptions({ queryKey: settingsQueryKey, queryFn: getSettings });

export const useSettings = () => useQuery(settingsQueryOptions());
