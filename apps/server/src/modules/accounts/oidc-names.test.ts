import { describe, expect, it } from 'vitest';
import { namesOf, usernameBase, usernameCandidates } from './oidc-names';

const none = { preferredUsername: null, email: null, name: null };

describe('a new account’s username from the claims', () => {
  it('takes the preferred username, else the address’s local part, else the name', () => {
    expect(usernameBase({ ...none, preferredUsername: 'Ada L.', email: 'x@example.test' })).toBe('ada.l');
    expect(usernameBase({ ...none, email: 'Grace.Hopper+navy@example.test' })).toBe('grace.hoppernavy');
    expect(usernameBase({ ...none, preferredUsername: 'joan@corp.test' })).toBe('joan');
    expect(usernameBase({ ...none, preferredUsername: '@@', name: 'Zoë Ünal' })).toBe('zoë.ünal');
  });

  it('never gives a name too short or too long for the username rule', () => {
    expect(usernameBase({ ...none, email: 'a@example.test' })).toBe('user');
    expect(usernameBase(none)).toBe('user');
    const long = usernameBase({ ...none, preferredUsername: `${'x'.repeat(23)}.-y` });
    expect(long).toBe('x'.repeat(23));
    expect(long).toMatch(/^[\p{L}\p{N}._-]{3,24}$/u);
  });

  it('tries numbered names, then random ones', () => {
    const tried = usernameCandidates('ada', () => 0.5);
    expect(tried.slice(0, 3)).toEqual(['ada', 'ada2', 'ada3']);
    expect(tried).toContain('ada9');
    expect(tried.at(-1)).toBe('ada4501000');
  });
});

describe('a new account’s names from the claims', () => {
  it('takes given and family names, else splits the full name', () => {
    expect(namesOf({ givenName: 'Ada', familyName: 'Lovelace', name: 'x' }, 'u')).toEqual({
      first: 'Ada',
      last: 'Lovelace',
    });
    expect(namesOf({ givenName: null, familyName: null, name: 'Grace Brewster Hopper' }, 'u')).toEqual({
      first: 'Grace',
      last: 'Brewster Hopper',
    });
    expect(namesOf({ givenName: null, familyName: null, name: null }, 'ada')).toEqual({
      first: 'ada',
      last: '',
    });
  });
});
