import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/http/api-error';
import { createGroupErrorText } from './create-group';

describe('group creation failure toast (SPEC §8)', () => {
  it("takes the server's error field, else detail, else 'Error happend'", () => {
    expect(createGroupErrorText(new ApiError(400, { error: 'E', detail: 'D' }))).toBe('E');
    expect(createGroupErrorText(new ApiError(400, { detail: 'D' }))).toBe('D');
    expect(createGroupErrorText(new ApiError(400, { group_name: ['Too long'] }))).toBe('Error happend');
    expect(createGroupErrorText(new ApiError(0, null))).toBe('Error happend');
    expect(createGroupErrorText(new Error('x'))).toBe('Error happend');
  });
});
