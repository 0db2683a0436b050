import { GROUP_AVATAR_MAX_BYTES } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { groupAvatarProblem } from './group-avatar';

describe('groupAvatarProblem', () => {
  it('takes an image up to the limit', () => {
    expect(groupAvatarProblem({ type: 'image/png', size: GROUP_AVATAR_MAX_BYTES })).toBeNull();
  });

  it('refuses what is not an image, and SVG', () => {
    expect(groupAvatarProblem({ type: 'application/pdf', size: 10 })).toBe(
      'Please select a valid image file.',
    );
    expect(groupAvatarProblem({ type: 'image/svg+xml', size: 10 })).toBe('Please select a valid image file.');
  });

  it('refuses an image over 2MB', () => {
    expect(groupAvatarProblem({ type: 'image/jpeg', size: GROUP_AVATAR_MAX_BYTES + 1 })).toBe(
      'Image size must be less than 2MB.',
    );
  });
});
