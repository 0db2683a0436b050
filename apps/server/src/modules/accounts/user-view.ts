import { type AuthUser, isLocale, type OwnProfile, type SettingsResponse } from '@parley/protocol';
import type { UserRow } from './users.repo';

// How a stored user is shown in each answer. Booleans leave the database as 0/1 and leave here as true/false.
export const avatarUrl = (name: string | null): string | null => (name ? `/media/avatars/${name}` : null);

export function toAuthUser(u: UserRow): AuthUser {
  return {
    id: u.id,
    username: u.username,
    email: u.email,
    first_name: u.first_name,
    last_name: u.last_name,
    displayname: u.displayname,
    avatar: avatarUrl(u.avatar),
    is_activated: !!u.is_activated,
    is_blue_verified: !!u.is_blue_verified,
    is_site_admin: !!u.is_site_admin,
  };
}

/** Presence as others may see it: a user with online_status off is offline with no last-seen time. */
export function visiblePresence(
  u: Pick<UserRow, 'online_status' | 'last_seen'>,
  online: boolean,
): { is_online: boolean; last_seen: string | null } {
  if (!u.online_status) return { is_online: false, last_seen: null };
  return { is_online: online, last_seen: u.last_seen };
}

export function toOwnProfile(u: UserRow, online: boolean): OwnProfile {
  return {
    user: u.id,
    id: u.id,
    username: u.username,
    email: u.email,
    first_name: u.first_name,
    last_name: u.last_name,
    date_joined: u.date_joined,
    displayname: u.displayname,
    bio: u.bio,
    avatar: avatarUrl(u.avatar),
    image: avatarUrl(u.avatar),
    location: u.location,
    hide_profile: !!u.hide_profile,
    is_blue_verified: !!u.is_blue_verified,
    // The owner always sees their own presence truthfully.
    is_online: online,
    last_seen: u.last_seen,
    created_at: u.date_joined,
  };
}

export function toSettings(u: UserRow, pendingEmail: string | null): SettingsResponse {
  return {
    user: {
      first_name: u.first_name,
      last_name: u.last_name,
      username: u.username,
      email: u.email,
      is_activated: !!u.is_activated,
    },
    profile: {
      displayname: u.displayname,
      phone: u.phone,
      bio: u.bio,
      hide_profile: !!u.hide_profile,
      online_status: !!u.online_status,
      read_receipt: !!u.read_receipt,
      push_notification: !!u.push_notification,
      email_notification: !!u.email_notification,
      avatar: avatarUrl(u.avatar),
    },
    pending_email: pendingEmail,
    language: isLocale(u.language) ? u.language : null,
  };
}
