import type { ProfileUpdateResult } from '@parley/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';
import { authStore } from '../../../lib/session/auth-store';

export interface ProfileUpdateInput {
  first_name: string;
  last_name: string;
  username: string;
  bio: string;
  image: File | null;
}

/** PUT /api/users/profile/update/ as multipart; the browser sets the content type and its boundary. */
export function updateProfile(input: ProfileUpdateInput): Promise<ProfileUpdateResult> {
  const form = new FormData();
  form.append('first_name', input.first_name);
  form.append('last_name', input.last_name);
  form.append('username', input.username);
  form.append('bio', input.bio);
  if (input.image) form.append('image', input.image);
  return api.put<ProfileUpdateResult>('/users/profile/update/', form);
}

/**
 * Saves the profile, then brings the signed-in user (name, username, avatar) up to date and marks every
 * profile answer stale: the own and public profiles ('profile') and the home list ('profiles').
 */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (result, input) => {
      const user = authStore.getState().user;
      if (user) {
        authStore.getState().updateUser({
          ...user,
          first_name: input.first_name,
          last_name: input.last_name,
          displayname: result.name,
          username: result.username,
          avatar: result.avatar,
        });
      }
      void queryClient.invalidateQueries({ queryKey: ['profile'] });
      void queryClient.invalidateQueries({ queryKey: ['profiles'] });
    },
  });
}
