import { GROUP_AVATAR_MAX_BYTES } from '@parley/protocol';

export const GROUP_AVATAR_HINT = 'Recommended: Square image, max 2MB';

/** Why a chosen group picture cannot be used, or null. SVG is refused: it is never served inline. */
export function groupAvatarProblem(file: Pick<File, 'type' | 'size'>): string | null {
  if (!file.type.startsWith('image/') || file.type === 'image/svg+xml')
    return 'Please select a valid image file.';
  if (file.size > GROUP_AVATAR_MAX_BYTES) return 'Image size must be less than 2MB.';
  return null;
}
