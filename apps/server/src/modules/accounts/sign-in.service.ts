import { AUDIT, type AuthResponse, DEACTIVATED_LOGIN_MESSAGE, MSG, SSO_MSG } from '@parley/protocol';
import type { Db } from '../../db/database';
import { BadRequestError, ForbiddenError } from '../../platform/errors';
import type { RateLimiter } from '../../platform/rate-limit';
import { enforceLimit } from '../../platform/rate-limit-policy';
import type { AuditService } from '../audit/audit.service';
import type { Passwords } from './passwords';
import type { Session, SessionClient, SessionService } from './session.service';
import type { TwoFactorService } from './two-factor.service';
import { toAuthUser } from './user-view';
import * as usersRepo from './users.repo';

interface Deps {
  db: Db;
  limiter: RateLimiter;
  passwords: Passwords;
  sessions: SessionService;
  audit: AuditService;
  /** The second step of a sign-in (two-step sign-in), after the password. */
  twoFactor: Pick<TwoFactorService, 'checkSignIn'>;
  /** OIDC_ONLY: the provider's name; passwords then sign in site admins only. */
  ssoOnly?: string | null;
}

/** What a sign-in brings besides its credentials: the second step's code, and where it signs in from. */
export interface SignInExtras {
  totpCode?: string;
  client?: SessionClient;
}

const LOCK_WINDOW_MS = 30 * 60_000;
/** Wrong passwords before an account, or an address, must wait out the window. */
const ACCOUNT_TRIES = 5;
const IP_TRIES = 50;

/** Signing in (password, then the second step when one is set) and out; failures are audited and locked out. */
export class SignInService {
  constructor(private readonly deps: Deps) {}

  async login(
    emailRaw: string,
    password: string,
    remember: boolean,
    ip: string,
    extras: SignInExtras,
  ): Promise<AuthResponse> {
    const { limiter, audit } = this.deps;
    const email = emailRaw.toLowerCase();
    const accountKey = `login-fail:acct:${email}`;
    const ipKey = `login-fail:ip:${ip}`;
    await enforceLimit(limiter, accountKey, ACCOUNT_TRIES, LOCK_WINDOW_MS, true);
    await enforceLimit(limiter, ipKey, IP_TRIES, LOCK_WINDOW_MS, true);

    const user = await usersRepo.findUserByEmail(this.deps.db, email);
    // A bot has no password: it is checked against the dummy hash, as an unknown email is, and refused alike.
    const ok = await this.deps.passwords.matches(user?.is_bot ? undefined : user?.password_hash, password);
    if (!user || !ok) {
      await limiter.hit(accountKey, ACCOUNT_TRIES, LOCK_WINDOW_MS);
      await limiter.hit(ipKey, IP_TRIES, LOCK_WINDOW_MS);
      await this.recordLoginFailure(user?.id ?? null, accountKey, ip);
      throw new BadRequestError(MSG.invalidCredentials);
    }
    if (user.deactivated_at) {
      await audit.record({ type: AUDIT.deactivatedLogin, target_id: user.id, detail: { ip } });
      throw new ForbiddenError(DEACTIVATED_LOGIN_MESSAGE);
    }
    // Told only once the password is right, so the refusal says nothing of who is a site admin.
    if (this.deps.ssoOnly && !user.is_site_admin)
      throw new ForbiddenError(SSO_MSG.passwordsOff.replace('{name}', this.deps.ssoOnly));
    if (!user.is_activated) {
      throw new ForbiddenError({
        requires_verification: true,
        email: user.email,
        message: MSG.verifyBeforeLogin,
      });
    }
    // Only a right password reaches the second step, so a stranger cannot use up a person's code tries.
    await this.deps.twoFactor.checkSignIn(user.id, extras.totpCode, ip);
    await limiter.reset(accountKey);
    const token = await this.deps.sessions.create(user.id, remember, undefined, { ip, ...extras.client });
    return { token, ...toAuthUser(user) };
  }

  /** A failed sign-in, and the lockout it starts when it is the fifth (the address is not kept: it may be a typo). */
  private async recordLoginFailure(userId: number | null, accountKey: string, ip: string) {
    await this.deps.audit.record({ type: AUDIT.loginFailed, target_id: userId, detail: { ip } });
    if (userId !== null && !(await this.deps.limiter.peek(accountKey, ACCOUNT_TRIES, LOCK_WINDOW_MS)).allowed)
      await this.deps.audit.record({ type: AUDIT.loginLocked, target_id: userId, detail: { ip } });
  }

  logout(session: Session) {
    return this.deps.sessions.revoke(session);
  }
}
