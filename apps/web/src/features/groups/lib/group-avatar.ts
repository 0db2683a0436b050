import { GROUP_AVATAR_MAX_BYTES } from '@parley/protocol';
import { t } from '../../../lib/i18n/i18n';

/** Why a chosen group picture cannot be used, or null. SVG is refused: it is never served inline. */
export function groupAvatarProblem(file: Pick<File, 'type' | 'size'>): string | null {
  if (!file.type.startsWith('image/') || file.type === 'image/svg+xml') return t('msg.imageInvalid');
  if (file.size > GROUP_AVATAR_MAX_BYTES) return t('groups.avatar.tooLarge');
  return null;
}
