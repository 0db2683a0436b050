import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('SOCKET_PING_SECONDS', () => {
  it('pings every 30 s unless set, in milliseconds for the sweep', () => {
    expect(loadConfig({}).socketPingMs).toBe(30_000);
    expect(loadConfig({ SOCKET_PING_SECONDS: '600' }).socketPingMs).toBe(600_000);
  });

  it('refuses a value that would ping too often, too seldom, or is no number', () => {
    for (const value of ['4', '3601', 'often', '2.5'])
      expect(() => loadConfig({ SOCKET_PING_SECONDS: value })).toThrow(
        /Invalid configuration: SOCKET_PING_SECONDS/,
      );
  });
});

describe('OIDC_*', () => {
  const provider = {
    OIDC_ISSUER: 'https://id.example.org/realms/staff',
    OIDC_CLIENT_ID: 'parley',
    OIDC_CLIENT_SECRET: 'secret',
  };

  it('turns single sign-on on with an issuer and the client, named SSO unless told', () => {
    expect(loadConfig({}).oidc).toBeNull();
    expect(loadConfig(provider).oidc).toEqual({
      issuer: provider.OIDC_ISSUER,
      clientId: 'parley',
      clientSecret: 'secret',
      name: 'SSO',
      only: false,
    });
    expect(loadConfig({ ...provider, OIDC_NAME: 'Acme ID', OIDC_ONLY: 'true' }).oidc).toMatchObject({
      name: 'Acme ID',
      only: true,
    });
  });

  it('refuses an issuer without its client, and OIDC_ONLY without a provider', () => {
    expect(() => loadConfig({ OIDC_ISSUER: provider.OIDC_ISSUER })).toThrow(/OIDC_CLIENT_ID/);
    expect(() => loadConfig({ ...provider, OIDC_ISSUER: 'not a url' })).toThrow(/OIDC_ISSUER/);
    expect(() => loadConfig({ OIDC_ONLY: 'true' })).toThrow(/OIDC_ONLY=true needs OIDC_ISSUER/);
  });
});
