import { AVATAR_MAX_BYTES, MSG } from '@parley/protocol';
import { bodyField, firstFieldError, isApiError } from '../../../lib/http/api-error';

// The profile screens' checks and error texts (SPEC §5, §8), pure so they are tested at their edges.

export const UPDATE_FAILED = 'Error updating profile. Please try again.';
export const LOAD_FAILED = 'Failed to load profile data.';

export interface ProfileFields {
  first_name: string;
  last_name: string;
  username: string;
  bio: string;
}

/** The required fields left blank (after trimming); empty when the form may be sent. */
export function missingRequired(fields: ProfileFields): Array<'first_name' | 'last_name' | 'username'> {
  return (['first_name', 'last_name', 'username'] as const).filter((key) => !fields[key].trim());
}

/** Why a chosen picture is refused before upload, or null: it must be an image of at most 10 MB. */
export function imageProblem(file: { type: string; size: number }): string | null {
  if (!file.type.startsWith('image/')) return MSG.imageInvalid;
  if (file.size > AVATAR_MAX_BYTES) return MSG.imageTooLarge;
  return null;
}

/** Server detail, else 'Username:' and the first username error, else the generic text. */
export function updateFailureMessage(error: unknown): string {
  if (!isApiError(error)) return UPDATE_FAILED;
  const detail = bodyField(error.body, 'detail');
  if (typeof detail === 'string' && detail.trim()) return detail;
  const username = firstFieldError(error.body, 'username');
  if (username) return `Username: ${username}`;
  return UPDATE_FAILED;
}

/** SPEC §8's public profile errors by status. */
export function publicProfileErrorText(error: unknown): string {
  if (isApiError(error) && error.status === 404) return 'User not found';
  if (isApiError(error) && error.status === 403) return 'This profile is private';
  return 'Failed to load profile';
}

/** The own profile's load error: the server's detail, else 'Failed to load profile'. */
export function ownProfileErrorText(error: unknown): string {
  const detail = isApiError(error) ? bodyField(error.body, 'detail') : null;
  return typeof detail === 'string' && detail.trim() ? detail : 'Failed to load profile';
}
