import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/http/api-error';
import {
  imageProblem,
  missingRequired,
  ownProfileErrorText,
  publicProfileErrorText,
  UPDATE_FAILED,
  updateFailureMessage,
} from './profile-errors';

const MB = 1024 * 1024;

describe('missingRequired', () => {
  it('names each blank required field; bio is optional', () => {
    expect(missingRequired({ first_name: 'Ada', last_name: 'L', username: 'ada', bio: '' })).toEqual([]);
    expect(missingRequired({ first_name: ' ', last_name: '', username: 'ada', bio: 'x' })).toEqual([
      'first_name',
      'last_name',
    ]);
  });
});

describe('imageProblem', () => {
  it('refuses anything that is not an image', () => {
    expect(imageProblem({ type: 'application/pdf', size: 10 })).toBe('Please select a valid image file.');
    expect(imageProblem({ type: '', size: 10 })).toBe('Please select a valid image file.');
  });

  it('accepts up to 10 MB and refuses a byte more', () => {
    expect(imageProblem({ type: 'image/png', size: 10 * MB })).toBeNull();
    expect(imageProblem({ type: 'image/png', size: 10 * MB + 1 })).toBe('Image size must be less than 10MB.');
  });
});

describe('updateFailureMessage (SPEC §8)', () => {
  it('shows the server detail first', () => {
    expect(updateFailureMessage(new ApiError(413, { detail: 'Image size must be less than 10MB.' }))).toBe(
      'Image size must be less than 10MB.',
    );
  });

  it("then 'Username:' and the first username error", () => {
    const error = new ApiError(400, { username: ['A user with that username already exists.', 'other'] });
    expect(updateFailureMessage(error)).toBe('Username: A user with that username already exists.');
  });

  it('otherwise the generic text', () => {
    expect(updateFailureMessage(new ApiError(500, 'Internal Server Error'))).toBe(UPDATE_FAILED);
    expect(updateFailureMessage(new ApiError(0, null))).toBe(UPDATE_FAILED);
    expect(updateFailureMessage(new Error('boom'))).toBe('Error updating profile. Please try again.');
  });
});

describe('publicProfileErrorText (SPEC §8)', () => {
  it('names 404 and 403, and anything else is a load failure', () => {
    expect(publicProfileErrorText(new ApiError(404, { detail: 'User not found' }))).toBe('User not found');
    expect(publicProfileErrorText(new ApiError(403, { detail: 'x' }))).toBe('This profile is private');
    expect(publicProfileErrorText(new ApiError(500, null))).toBe('Failed to load profile');
    expect(publicProfileErrorText(new ApiError(0, null))).toBe('Failed to load profile');
  });
});

describe('ownProfileErrorText (SPEC §8)', () => {
  it('shows the server detail, else the generic text', () => {
    expect(ownProfileErrorText(new ApiError(500, { detail: 'Database unavailable' }))).toBe(
      'Database unavailable',
    );
    expect(ownProfileErrorText(new ApiError(502, '<html>'))).toBe('Failed to load profile');
    expect(ownProfileErrorText(new TypeError('x'))).toBe('Failed to load profile');
  });
});
