/// <reference path="./oidc-provider-types.d.ts" />
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

// A real OpenID provider on this machine (the `oidc-provider` package, its development login pages), for the
// server's single sign-on tests and the browser journey. The login page takes any login and password: the login
// names the account, whose claims the test sets with `account()` beforehand.

export interface ProviderAccount {
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  name?: string;
  preferred_username?: string;
}

export interface OidcTestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The environment a Parley server needs to use this provider. */
  env(name?: string): Record<string, string>;
  /** Lets a Parley server at `origin` sign in here (its callback as the client's redirect URI). */
  allow(origin: string): void;
  /** The claims of the account signed in with `login` (unknown logins get a verified `{login}@example.test`). */
  account(login: string, claims: ProviderAccount): void;
  close(): Promise<void>;
}

const CALLBACK = '/api/auth/oidc/callback';

export async function startOidcProvider(): Promise<OidcTestProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'parley';
  const clientSecret = 'a-test-secret-of-the-parley-client-0123456789';
  const accounts = new Map<string, ProviderAccount>();
  const origins = new Set<string>();
  let handler: ReturnType<Provider['callback']> | null = null;

  // Made at the first request, once the Parley servers it serves (and so their redirect URIs) are known.
  const build = () => {
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: [...origins].map((o) => `${o}${CALLBACK}`),
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      claims: {
        openid: ['sub'],
        email: ['email', 'email_verified'],
        profile: ['name', 'given_name', 'family_name', 'preferred_username'],
      },
      findAccount: (_ctx, id) => ({
        accountId: id,
        claims: () => ({ sub: id, email: `${id}@example.test`, email_verified: true, ...accounts.get(id) }),
      }),
      features: { devInteractions: { enabled: true } },
      cookies: { keys: ['a-cookie-key-for-the-test-provider'] },
      ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600 },
    });
    return provider.callback();
  };
  server.on('request', (req, res) => {
    handler ??= build();
    handler(req, res);
  });

  return {
    issuer,
    clientId,
    clientSecret,
    env: (name = 'Test ID') => ({
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: clientId,
      OIDC_CLIENT_SECRET: clientSecret,
      OIDC_NAME: name,
    }),
    allow(origin) {
      origins.add(origin.replace(/\/+$/, ''));
      handler = null;
    },
    account(login, claims) {
      accounts.set(login, claims);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
