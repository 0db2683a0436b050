import type { SettingsResponse } from '@parley/protocol';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../http/api-client';

// Shared, not the settings feature's: the settings screen edits this cache and the notification channel reads
// its Push Notifications switch, and one feature never imports another.

/** GET /api/users/profile/settings/ → {user, profile, pending_email}. */
export const getSettings = (): Promise<SettingsResponse> =>
  api.get<SettingsResponse>('/users/profile/settings/');

export const settingsQueryKey = ['settings'] as const;

export const settingsQueryOptions = () => queryOptions({ queryKey: settingsQueryKey, queryFn: getSettings });

export const useSettings = () => useQuery(settingsQueryOptions());
