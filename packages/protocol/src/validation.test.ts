import { describe, expect, it } from 'vitest';
import { registerSchema } from './auth';
import { groupCreateSchema } from './chat';
import { MSG } from './messages';
import { validateSignup } from './validation';

// An over-long field gets a plain sentence, in the form and from the server, never zod's own text.
const ok = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  username: 'ada',
  email: 'ada@example.test',
  password: 'correct horse',
  confirm_password: 'correct horse',
};

describe('over-long fields', () => {
  it('are named in plain words by the sign-up form', () => {
    expect(validateSignup(ok)).toEqual({});
    const long = validateSignup({
      ...ok,
      first_name: 'a'.repeat(151),
      last_name: 'b'.repeat(151),
      username: 'c'.repeat(151),
      email: `${'d'.repeat(250)}@example.test`,
      password: 'e'.repeat(129),
      confirm_password: 'e'.repeat(129),
    });
    expect(long).toEqual({
      first_name: MSG.firstNameTooLong,
      last_name: MSG.lastNameTooLong,
      username: MSG.usernameTooLong,
      email: MSG.emailTooLong,
      password: MSG.passwordTooLong,
    });
  });

  it('are named in plain words by the server', () => {
    const { confirm_password: _c, ...payload } = ok;
    const issues = registerSchema.safeParse({
      ...payload,
      first_name: 'a'.repeat(151),
      username: 'c'.repeat(151),
      email: `${'d'.repeat(250)}@example.test`,
    }).error?.issues;
    const byField = Object.fromEntries((issues ?? []).map((i) => [i.path[0], i.message]));
    expect(byField).toEqual({
      first_name: MSG.firstNameTooLong,
      username: MSG.usernameTooLong,
      email: MSG.emailTooLong,
    });
    expect(groupCreateSchema.safeParse({ group_name: 'g'.repeat(300) }).error?.issues[0]?.message).toBe(
      MSG.groupNameTooLong,
    );
  });
});
