import { AVATAR_MAX_BYTES, AVATAR_MSG, MSG } from '@parley/protocol';
import { bodyField, firstFieldError, isApiError } from '../../../lib/http/api-error';
import { t } from '../../../lib/i18n/i18n';
import { knowServerTexts, localText } from '../../../lib/i18n/server-texts';

// The profile screens' checks and error texts (SPEC §5, §8), pure so they are tested at their edges; each in the
// reader's language (SPEC's English words in English).

/** SPEC's English of the update's generic failure. */
export const UPDATE_FAILED = 'Error updating profile. Please try again.';

// The server's refusals of a profile picture beyond MSG.
knowServerTexts([
  [AVATAR_MSG.unsupportedType, 'account.profile.unsupportedImage'],
  [AVATAR_MSG.unreadable, 'account.profile.unreadableImage'],
  [AVATAR_MSG.tooManyFiles, 'account.profile.oneImage'],
]);

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
  if (!file.type.startsWith('image/')) return localText(MSG.imageInvalid);
  if (file.size > AVATAR_MAX_BYTES) return localText(MSG.imageTooLarge);
  return null;
}

/** Server detail, else 'Username:' and the first username error, else the generic text. */
export function updateFailureMessage(error: unknown): string {
  if (!isApiError(error)) return t('account.profile.updateFailed');
  const detail = bodyField(error.body, 'detail');
  if (typeof detail === 'string' && detail.trim()) return localText(detail);
  const username = firstFieldError(error.body, 'username');
  if (username) return t('account.profile.usernameProblem', { problem: username });
  return t('account.profile.updateFailed');
}

/** SPEC §8's public profile errors by status. */
export function publicProfileErrorText(error: unknown): string {
  if (isApiError(error) && error.status === 404) return t('account.profile.userNotFound');
  if (isApiError(error) && error.status === 403) return t('account.profile.private');
  return t('account.profile.failed');
}

/** The own profile's load error: the server's detail, else 'Failed to load profile'. */
export function ownProfileErrorText(error: unknown): string {
  const detail = isApiError(error) ? bodyField(error.body, 'detail') : null;
  return typeof detail === 'string' && detail.trim() ? localText(detail) : t('account.profile.failed');
}
