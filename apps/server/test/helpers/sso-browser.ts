// A browser's part in single sign-on, over plain HTTP: it keeps each site's cookies, follows redirects, and fills
// the test provider's login and consent pages (oidc-provider.ts) as a person would.

/** Cookies by host name, as browsers keep them (the port is no part of a cookie's scope). */
export class CookieJar {
  private readonly byHost = new Map<string, Map<string, string>>();
  header(url: URL): string {
    const jar = this.byHost.get(url.hostname);
    return jar ? [...jar].map(([k, v]) => `${k}=${v}`).join('; ') : '';
  }
  take(url: URL, res: Response) {
    const jar = this.byHost.get(url.hostname) ?? new Map<string, string>();
    this.byHost.set(url.hostname, jar);
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = (pair as string).indexOf('=');
      const name = (pair as string).slice(0, eq).trim();
      const value = (pair as string).slice(eq + 1).trim();
      const gone = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '';
      if (gone) jar.delete(name);
      else jar.set(name, value);
    }
  }
  get(host: string, name: string): string | undefined {
    return this.byHost.get(host)?.get(name);
  }
  set(host: string, name: string, value: string) {
    const jar = this.byHost.get(host) ?? new Map<string, string>();
    this.byHost.set(host, jar);
    jar.set(name, value);
  }
}

export interface Hop {
  url: URL;
  res: Response;
  body: string;
}

/** One request as a browser makes it: the host's cookies sent, the answer's kept, no redirect followed. */
export async function browse(jar: CookieJar, url: URL, form?: Record<string, string>): Promise<Hop> {
  const headers: Record<string, string> = { cookie: jar.header(url) };
  if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
  const res = await fetch(url, {
    method: form ? 'POST' : 'GET',
    headers,
    body: form ? new URLSearchParams(form).toString() : undefined,
    redirect: 'manual',
  });
  jar.take(url, res);
  return { url, res, body: await res.text() };
}

const formAction = (html: string) => /<form[^>]*action="([^"]+)"/.exec(html)?.[1]?.replaceAll('&amp;', '&');

/**
 * From Parley's start route to the provider's answer: follows redirects and fills the login page with `login`
 * and the consent page, until the provider sends the browser back to Parley's callback. That address is returned
 * unvisited (a test may change it first); `cancel` leaves the login page by its "cancel" link instead.
 */
export async function throughProvider(
  jar: CookieJar,
  startUrl: string,
  login: string,
  options: { cancel?: boolean } = {},
): Promise<URL> {
  let hop = await browse(jar, new URL(startUrl));
  for (let step = 0; step < 20; step++) {
    const location = hop.res.headers.get('location');
    if (location) {
      const next = new URL(location, hop.url);
      if (next.pathname.endsWith('/api/auth/oidc/callback')) return next;
      if (next.pathname === '/login') throw new Error(`Parley sent the browser back: ${next.hash}`);
      hop = await browse(jar, next);
      continue;
    }
    if (hop.res.status !== 200) throw new Error(`${hop.url.href} answered ${hop.res.status}: ${hop.body}`);
    if (options.cancel) {
      const abort = /href="([^"]*\/abort)"/.exec(hop.body)?.[1];
      if (!abort) throw new Error('No cancel link on the provider page');
      hop = await browse(jar, new URL(abort, hop.url));
      continue;
    }
    const action = formAction(hop.body);
    if (!action) throw new Error(`No form on ${hop.url.href}`);
    const fields: Record<string, string> = hop.body.includes('name="login"')
      ? { prompt: 'login', login, password: 'any password' }
      : { prompt: 'consent' };
    hop = await browse(jar, new URL(action, hop.url), fields);
  }
  throw new Error('Too many steps at the provider');
}

/** Visits Parley's callback: the fragment of the web app's address it sends the browser to (`sso=…` or `sso_error=…`). */
export async function landing(jar: CookieJar, callback: URL): Promise<URLSearchParams> {
  const hop = await browse(jar, callback);
  const location = hop.res.headers.get('location');
  if (hop.res.status !== 302 || !location)
    throw new Error(`The callback answered ${hop.res.status}: ${hop.body}`);
  const url = new URL(location, callback);
  if (url.pathname !== '/login') throw new Error(`The callback sent the browser to ${url.pathname}`);
  return new URLSearchParams(url.hash.slice(1));
}
