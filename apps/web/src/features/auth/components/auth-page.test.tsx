import { I18nProvider } from '@lingui/react';
import { type PublicSite, SSO_MSG } from '@parley/protocol';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import de from '../../../../../../packages/protocol/catalogs/de.json';
import en from '../../../../../../packages/protocol/catalogs/en.json';
import { i18n } from '../../../lib/i18n/i18n';
import { siteQueryKey } from '../api/get-site';
import { AuthPage } from './auth-page';

// The auth screen as the server's settings make it: the single sign-on button, the password forms it hides under
// OIDC_ONLY, and the banner a refused sign-in comes back with.

const site = (overrides: Partial<PublicSite> = {}): PublicSite => ({
  signups: 'open',
  domains: [],
  invites: false,
  sign_in_providers: [{ id: 'oidc', name: 'Acme ID', start_url: '/api/auth/oidc/start' }],
  password_sign_in: true,
  ...overrides,
});

const draw = (path: string, settings: PublicSite) => {
  const client = new QueryClient();
  client.setQueryData(siteQueryKey, settings);
  return renderToStaticMarkup(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[path]}>
          <AuthPage />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nProvider>,
  );
};

describe('AuthPage with single sign-on', () => {
  it('offers the provider below the password form, carrying an invite link to the sign-up', () => {
    const login = draw('/login', site());
    expect(login).toContain('Sign in with Acme ID');
    expect(login).toContain('href="/api/auth/oidc/start"');
    expect(login).toContain('name="password"');
    const signup = draw('/register?invite=abc123', site());
    expect(signup).toContain('First Name');
    expect(signup).toContain('href="/api/auth/oidc/start?invite=abc123"');
  });

  it('under OIDC_ONLY leads with the provider, the password form a link away, and no sign-up form', () => {
    const login = draw('/login', site({ password_sign_in: false }));
    expect(login).toContain('Sign in with Acme ID');
    expect(login).toContain('Site administrator? Log in with a password');
    expect(login).not.toContain('name="password"');
    const signup = draw('/register', site({ password_sign_in: false }));
    expect(signup).toContain(SSO_MSG.signUpOff.replace('{name}', 'Acme ID'));
    expect(signup).not.toContain('First Name');
  });

  it('shows why a sign-in came back refused, naming the provider', () => {
    const html = draw('/login#sso_error=refused', site());
    expect(html).toContain('role="alert"');
    expect(html).toContain('Acme ID did not sign you in.');
  });

  it('shows no provider where none is configured', () => {
    expect(draw('/login', site({ sign_in_providers: [] }))).not.toContain('Sign in with');
  });
});

describe('AuthPage in German', () => {
  afterEach(() => i18n.loadAndActivate({ locale: 'en', messages: en }));

  it('greets, labels and names the provider in German, the server’s refusal too', () => {
    i18n.loadAndActivate({ locale: 'de', messages: de });
    const login = draw('/login#sso_error=refused', site());
    expect(login).toContain('Willkommen zurück');
    expect(login).toContain('Passwort');
    expect(login).toContain('Mit Acme ID anmelden');
    expect(login).toContain('Acme ID hat dich nicht angemeldet.');
    expect(login).toContain('<option value="de" lang="de" selected="">Deutsch</option>');
    expect(login).not.toContain('Welcome back');
  });
});
