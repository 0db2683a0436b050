import { type ChatDetail, isAdminRole } from '@parley/protocol';

/**
 * What the bottom of a room holds for its reader: the composer; the 'Join channel' bar for someone previewing
 * a public group they have not joined; or, in an announcement channel (posting 'admins'), a line saying only
 * admins post, for a member who is not one.
 */
export type ComposerSlot = 'composer' | 'join' | 'admins-only';

export function composerSlot(
  chat: Pick<ChatDetail, 'is_member' | 'posting' | 'members'>,
  meId: number,
): ComposerSlot {
  if (chat.is_member === false) return 'join';
  if (chat.posting !== 'admins') return 'composer';
  return isAdminRole(chat.members.find((m) => m.id === meId)?.role) ? 'composer' : 'admins-only';
}

/** Marks the composer's text box: found by this, not by its name, which is in the reader's language. */
export const COMPOSER_BOX = 'data-composer-box';
export const COMPOSER_BOX_SELECTOR = `textarea[${COMPOSER_BOX}]`;

/** Marks what stands in the composer's place, so the focus can go there when the composer is not drawn. */
export const COMPOSER_STAND_IN = 'data-composer-stand-in';
