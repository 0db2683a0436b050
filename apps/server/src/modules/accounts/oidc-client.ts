import * as client from 'openid-client';
import type { OidcSettings } from '../../config';

/** What the provider says of the person, once the ID token (and its user info) checked out. */
export interface OidcIdentity {
  sub: string;
  email: string | null;
  emailVerified: boolean;
  givenName: string | null;
  familyName: string | null;
  name: string | null;
  preferredUsername: string | null;
}

/** The secrets a sign-in keeps between sending the browser away and its coming back. */
export interface OidcChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The provider answered the callback with an error (the person cancelled, or it refused this client). */
export class OidcRefusedError extends Error {
  constructor(readonly code: string) {
    super(`The OpenID provider refused the sign-in: ${code}`);
    this.name = 'OidcRefusedError';
  }
}

/** The provider's metadata could not be had (it is down, or its address is wrong): no sign-in can start. */
export class OidcUnavailableError extends Error {
  constructor(reason: string) {
    super(`The OpenID provider could not be reached: ${reason}`);
    this.name = 'OidcUnavailableError';
  }
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/**
 * The relying party's side of the authorization code flow with PKCE, `state` and `nonce`, through openid-client,
 * which checks the ID token (signature, issuer, audience, expiry, nonce). The provider's metadata is discovered
 * at the first sign-in and kept; a failed discovery is tried again at the next. Plain http is allowed only for a
 * provider on this machine (a development or test provider).
 */
export class OidcClient {
  private config: Promise<client.Configuration> | null = null;

  constructor(private readonly settings: OidcSettings) {}

  private configuration(): Promise<client.Configuration> {
    if (!this.config) {
      const issuer = new URL(this.settings.issuer);
      const insecure = issuer.protocol === 'http:' && LOOPBACK.has(issuer.hostname);
      this.config = client
        .discovery(
          issuer,
          this.settings.clientId,
          this.settings.clientSecret,
          undefined,
          insecure ? { execute: [client.allowInsecureRequests] } : undefined,
        )
        .catch((err: unknown) => {
          this.config = null;
          throw new OidcUnavailableError(err instanceof Error ? err.message : String(err));
        });
    }
    return this.config;
  }

  /** Fresh secrets for one sign-in, and the provider's address to send the browser to. */
  async start(redirectUri: string): Promise<{ url: URL; checks: OidcChecks }> {
    const config = await this.configuration();
    const checks: OidcChecks = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      codeVerifier: client.randomPKCECodeVerifier(),
    };
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      response_type: 'code',
      code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
      state: checks.state,
      nonce: checks.nonce,
    });
    return { url, checks };
  }

  /**
   * The callback's answer (`callbackUrl`: the redirect URI with the query the provider sent) traded for tokens:
   * throws OidcRefusedError when the provider sent an error, another error when anything fails to check out
   * (a `state` that is not this sign-in's among them).
   */
  async finish(callbackUrl: URL, checks: OidcChecks): Promise<OidcIdentity> {
    const error = callbackUrl.searchParams.get('error');
    if (error) throw new OidcRefusedError(error);
    const config = await this.configuration();
    const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      pkceCodeVerifier: checks.codeVerifier,
      idTokenExpected: true,
    });
    const idClaims = tokens.claims();
    if (!idClaims) throw new Error('The OpenID provider sent no ID token.');
    let claims: Record<string, unknown> = idClaims;
    // Providers that keep the ID token small put the address and names in the user info only.
    if (claims.email === undefined || claims.email_verified === undefined || claims.name === undefined) {
      const info = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub);
      claims = { ...info, ...idClaims };
    }
    return {
      sub: idClaims.sub,
      email: text(claims.email)?.toLowerCase() ?? null,
      emailVerified: claims.email_verified === true,
      givenName: text(claims.given_name),
      familyName: text(claims.family_name),
      name: text(claims.name),
      preferredUsername: text(claims.preferred_username),
    };
  }
}
