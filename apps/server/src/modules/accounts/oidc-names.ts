import { NAME_MAX_LENGTH, USERNAME_MIN_LENGTH } from '@parley/protocol';
import type { OidcIdentity } from './oidc-client';

/** Long enough to read, short enough to type; the person may change it in their profile. */
const BASE_MAX = 24;

/** Letters, digits, '.', '_' and '-' (the username rule), lower-cased, without leading or trailing marks. */
const clean = (raw: string): string =>
  raw
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, '.')
    .replace(/[^\p{L}\p{N}._-]+/gu, '')
    .replace(/^[._-]+|[._-]+$/g, '')
    .slice(0, BASE_MAX)
    .replace(/[._-]+$/, '');

/**
 * The username a new account made by single sign-on starts from: the provider's preferred username, else the
 * address's local part, else the person's name; 'user' when none leaves enough. A number is added while it is taken.
 */
export function usernameBase(identity: Pick<OidcIdentity, 'preferredUsername' | 'email' | 'name'>): string {
  const local = identity.email ? identity.email.slice(0, identity.email.lastIndexOf('@')) : null;
  for (const raw of [identity.preferredUsername, local, identity.name]) {
    // A preferred username that is an address gives its local part, never the whole address.
    const candidate = raw ? clean(raw.includes('@') ? raw.slice(0, raw.lastIndexOf('@')) : raw) : '';
    if (candidate.length >= USERNAME_MIN_LENGTH) return candidate;
  }
  return 'user';
}

/** The candidates tried in turn: the base, then base2 … base9, then the base with random digits. */
export function usernameCandidates(base: string, random: () => number = Math.random): string[] {
  const numbered = Array.from({ length: 8 }, (_, i) => `${base}${i + 2}`);
  const randoms = Array.from({ length: 5 }, () => `${base}${Math.floor(1000 + random() * 9_000_000)}`);
  return [base, ...numbered, ...randoms];
}

const cut = (s: string) => s.slice(0, NAME_MAX_LENGTH);

/** First and last name from the claims: given and family names, else the full name split at its first space. */
export function namesOf(
  identity: Pick<OidcIdentity, 'givenName' | 'familyName' | 'name'>,
  fallback: string,
): { first: string; last: string } {
  if (identity.givenName || identity.familyName)
    return { first: cut(identity.givenName ?? fallback), last: cut(identity.familyName ?? '') };
  if (identity.name) {
    const space = identity.name.indexOf(' ');
    if (space < 0) return { first: cut(identity.name), last: '' };
    return { first: cut(identity.name.slice(0, space)), last: cut(identity.name.slice(space + 1).trim()) };
  }
  return { first: cut(fallback), last: '' };
}
