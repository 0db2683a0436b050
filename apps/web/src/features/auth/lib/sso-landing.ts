import { SSO_CODE_KEY, SSO_ERROR_KEY } from '@parley/protocol';

/** What single sign-on left in the address's fragment when it sent the browser back: a code, or why there is none. */
export type SsoLanding = { code: string } | { error: string } | null;

export function ssoLanding(hash: string): SsoLanding {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const code = params.get(SSO_CODE_KEY);
  if (code) return { code };
  const error = params.get(SSO_ERROR_KEY);
  return error ? { error } : null;
}

/** The start address on the API's host, carrying a sign-up page's invite link to the account it may make. */
export function ssoStartHref(startUrl: string, apiBase: string, invite: string | null): string {
  const href = startUrl.startsWith('/api/') ? `${apiBase}${startUrl.slice('/api'.length)}` : startUrl;
  return invite ? `${href}${href.includes('?') ? '&' : '?'}invite=${encodeURIComponent(invite)}` : href;
}

/** Where the person was going when they left for the provider: kept in this tab while they are away. */
const RETURN_KEY = 'parley.sso.return';

const tabStorage = (): Storage | null => {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
};

export function rememberSsoReturn(path: string): void {
  try {
    tabStorage()?.setItem(RETURN_KEY, path);
  } catch {
    // Storage refused (private mode, full): the person lands on the home page instead.
  }
}

/** The path kept by rememberSsoReturn, once (it is forgotten as it is read). */
export function takeSsoReturn(): string | null {
  const storage = tabStorage();
  const path = storage?.getItem(RETURN_KEY) ?? null;
  storage?.removeItem(RETURN_KEY);
  return path;
}
