import { randomBytes, timingSafeEqual } from 'node:crypto';
import {
  AUDIT,
  type AuthResponse,
  DEACTIVATED_LOGIN_MESSAGE,
  INVITE_INVALID_MESSAGE,
  type SignInProvider,
  SSO_HANDOFF_TOTP_TTL_MS,
  SSO_HANDOFF_TTL_MS,
  SSO_MSG,
  SSO_PROVIDER_ID,
  SSO_START_PATH,
  type SsoErrorKind,
} from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { OidcSettings } from '../../config';
import type { Db } from '../../db/database';
import { BadRequestError, ForbiddenError, HttpError } from '../../platform/errors';
import type { AuditService } from '../audit/audit.service';
import * as repo from './oidc.repo';
import { type OidcClient, type OidcIdentity, OidcRefusedError } from './oidc-client';
import { namesOf, usernameBase, usernameCandidates } from './oidc-names';
import type { Passwords } from './passwords';
import type { SessionClient, SessionService } from './session.service';
import { hashToken } from './session-hash';
import type { SignUpService, SignupGate } from './sign-up.service';
import type { TwoFactorService } from './two-factor.service';
import { toAuthUser } from './user-view';
import * as usersRepo from './users.repo';

interface Deps {
  db: Db;
  log: FastifyBaseLogger;
  settings: OidcSettings;
  client: OidcClient;
  passwords: Passwords;
  sessions: SessionService;
  audit: AuditService;
  twoFactor: Pick<TwoFactorService, 'checkSignIn' | 'isEnabled'>;
  /** Who may sign up: the admin module's server settings, asked as a password sign-up asks them. */
  signupGate: SignupGate;
  /** The first verified account becomes the site admin, whichever way it was made. */
  firstAdmin: Pick<SignUpService, 'becomeFirstAdmin'>;
}

/** What GET /api/site/ says of signing in: the provider's button, and whether passwords still sign people in. */
export function ssoSiteView(settings: OidcSettings | null): {
  providers: SignInProvider[];
  passwordSignIn: boolean;
} {
  if (!settings) return { providers: [], passwordSignIn: true };
  return {
    providers: [{ id: SSO_PROVIDER_ID, name: settings.name, start_url: SSO_START_PATH }],
    passwordSignIn: !settings.only,
  };
}

/** How long a browser has at the provider before the sign-in it started is forgotten. */
const FLOW_TTL_MS = 10 * 60_000;

/** The outcome of the callback: a one-time code for the web app, or why there is none. */
export type OidcCallbackResult = { code: string } | { error: SsoErrorKind };

/** Compares in a time that does not tell how much of a guess was right. */
const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

const isUniqueViolation = (err: unknown) => /unique|duplicate/i.test(String(err));

/** A refusal from the sign-up gate, told as the callback's kind of error. */
function signupRefusal(err: unknown): SsoErrorKind | null {
  if (!(err instanceof HttpError) || (err.status !== 400 && err.status !== 403)) return null;
  return (err.body as { detail?: unknown }).detail === INVITE_INVALID_MESSAGE ? 'invite' : 'signups_closed';
}

/**
 * Single sign-on through one OpenID provider. `start` remembers a sign-in's secrets under a random id the browser
 * keeps in a cookie; `callback` checks the provider's answer against them, finds the account with the provider's
 * verified address or makes one, and hands the web app a one-time code (only its hash stored, good for a minute);
 * `exchange` trades it for a session, asking for the two-step code first when the account has that on.
 */
export class OidcService {
  constructor(private readonly deps: Deps) {}

  /** A new sign-in: the provider's address, and the id the browser must bring back (its cookie's value). */
  async start(redirectUri: string, invite: string | null): Promise<{ url: string; flowId: string }> {
    // Sign-ins abandoned half way are cleared as new ones start: the tables stay as small as their traffic.
    await repo.deleteExpired(this.deps.db, new Date().toISOString());
    const { url, checks } = await this.deps.client.start(redirectUri);
    const flowId = randomBytes(32).toString('base64url');
    await repo.insertFlow(this.deps.db, {
      id_hash: hashToken(flowId),
      state: checks.state,
      nonce: checks.nonce,
      code_verifier: checks.codeVerifier,
      invite,
      expires_at: new Date(Date.now() + FLOW_TTL_MS).toISOString(),
    });
    return { url: url.href, flowId };
  }

  /**
   * The provider's answer. `flowId`: the browser's cookie (null when it brought none); `callbackUrl`: the redirect
   * URI with the query the provider sent. The flow is used up whatever the outcome, so an answer counts once.
   */
  async callback(flowId: string | null, callbackUrl: URL, ip: string): Promise<OidcCallbackResult> {
    const result = await this.answer(flowId, callbackUrl, ip);
    // A deactivated account's try is recorded as such (answer), as a password's is.
    if ('error' in result && result.error !== 'deactivated')
      await this.deps.audit.record({ type: AUDIT.ssoFailed, detail: { ip, reason: result.error } });
    return result;
  }

  private async answer(flowId: string | null, callbackUrl: URL, ip: string): Promise<OidcCallbackResult> {
    const now = new Date().toISOString();
    const flow = flowId ? await repo.takeFlow(this.deps.db, hashToken(flowId), now) : undefined;
    if (!flow || !sameText(callbackUrl.searchParams.get('state') ?? '', flow.state))
      return { error: 'state' };
    let identity: OidcIdentity;
    try {
      identity = await this.deps.client.finish(callbackUrl, {
        state: flow.state,
        nonce: flow.nonce,
        codeVerifier: flow.code_verifier,
      });
    } catch (err) {
      if (err instanceof OidcRefusedError) return { error: 'refused' };
      this.deps.log.warn(
        { err: (err as Error).message },
        'Single sign-on: the provider answer did not check out',
      );
      return { error: 'provider' };
    }
    if (!identity.email || !identity.emailVerified) return { error: 'unverified' };

    const found = await this.accountFor(identity, flow.invite);
    if ('error' in found) return found;
    const user = await usersRepo.findUserById(this.deps.db, found.userId);
    if (!user) return { error: 'state' };
    if (user.deactivated_at) {
      await this.deps.audit.record({
        type: AUDIT.deactivatedLogin,
        target_id: user.id,
        detail: { ip, sso: true },
      });
      return { error: 'deactivated' };
    }
    const code = randomBytes(32).toString('base64url');
    const ttl = (await this.deps.twoFactor.isEnabled(user.id)) ? SSO_HANDOFF_TOTP_TTL_MS : SSO_HANDOFF_TTL_MS;
    await repo.insertHandoff(this.deps.db, {
      code_hash: hashToken(code),
      user_id: user.id,
      created: found.created ? 1 : 0,
      expires_at: new Date(Date.now() + ttl).toISOString(),
    });
    return { code };
  }

  /**
   * The account with the provider's verified address, or a new one when sign-ups let it be made. An account that
   * was signed up with a password but never verified is verified now, and that password dropped: whoever chose it
   * never proved the address was theirs.
   */
  private async accountFor(
    identity: OidcIdentity,
    invite: string | null,
  ): Promise<{ userId: number; created: boolean } | { error: SsoErrorKind }> {
    const email = identity.email as string;
    const existing = await usersRepo.findUserByEmail(this.deps.db, email);
    if (existing?.is_bot) return { error: 'unverified' };
    if (existing?.is_activated) return { userId: existing.id, created: false };
    const passwordHash = await this.unusablePassword();
    if (existing) {
      if (existing.deactivated_at) return { userId: existing.id, created: false };
      await this.deps.db.transaction().execute(async (trx) => {
        await usersRepo.updateUser(trx, existing.id, { is_activated: 1, password_hash: passwordHash });
        if (!existing.is_site_admin) await this.deps.firstAdmin.becomeFirstAdmin(trx, existing.id);
      });
      return { userId: existing.id, created: false };
    }
    const { first, last } = namesOf(identity, usernameBase(identity));
    for (const username of usernameCandidates(usernameBase(identity))) {
      if (await usersRepo.findUserByUsername(this.deps.db, username)) continue;
      try {
        const userId = await this.deps.db.transaction().execute(async (trx) => {
          await this.deps.signupGate.admit(trx, email, invite);
          const id = await usersRepo.insertUser(trx, {
            username,
            email,
            password_hash: passwordHash,
            first_name: first,
            last_name: last,
            displayname: `${first} ${last}`.trim(),
            is_activated: 1,
            date_joined: new Date().toISOString(),
          });
          await this.deps.firstAdmin.becomeFirstAdmin(trx, id);
          return id;
        });
        return { userId, created: true };
      } catch (err) {
        const refusal = signupRefusal(err);
        if (refusal) return { error: refusal };
        if (!isUniqueViolation(err)) throw err;
        // The address was taken meanwhile (another sign-in of the same person): that account is theirs.
        const raced = await usersRepo.findUserByEmail(this.deps.db, email);
        if (raced?.is_activated) return { userId: raced.id, created: false };
      }
    }
    throw new Error('No free username for a new account made by single sign-on');
  }

  /** A hash no password matches: an account made by single sign-on has none until its owner sets one by reset. */
  private unusablePassword(): Promise<string> {
    return this.deps.passwords.hash(randomBytes(32).toString('base64url'));
  }

  /**
   * The web app's one-time code traded for a session. While the account has two-step sign-in on, the code is
   * kept and the answer is the 401 asking for the second step, as a password sign-in's is.
   */
  async exchange(code: string, totpCode: string | undefined, client: SessionClient): Promise<AuthResponse> {
    const { db } = this.deps;
    const codeHash = hashToken(code);
    const handoff = await repo.findHandoff(db, codeHash, new Date().toISOString());
    if (!handoff) throw new BadRequestError(SSO_MSG.expired);
    await this.deps.twoFactor.checkSignIn(handoff.user_id, totpCode, client.ip ?? '');
    const user = await usersRepo.findUserById(db, handoff.user_id);
    if (!user) throw new BadRequestError(SSO_MSG.expired);
    if (user.deactivated_at) throw new ForbiddenError(DEACTIVATED_LOGIN_MESSAGE);
    const token = await db.transaction().execute(async (trx) => {
      if (!(await repo.takeHandoff(trx, codeHash, new Date().toISOString())))
        throw new BadRequestError(SSO_MSG.expired);
      await this.deps.audit.record(
        {
          type: AUDIT.ssoSignIn,
          actor_id: user.id,
          target_id: user.id,
          detail: { ip: client.ip ?? null, created: handoff.created === 1 },
        },
        trx,
      );
      return this.deps.sessions.create(user.id, true, trx, client);
    });
    return { token, ...toAuthUser(user) };
  }
}
