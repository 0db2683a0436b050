import {
  ACCOUNT_DELETE_MSG,
  acceptedLanguages,
  accountDeleteSchema,
  codeOnlySchema,
  emailCodeSchema,
  emailOnlySchema,
  emailUpdateSchema,
  localeFor,
  loginSchema,
  registerSchema,
  resetConfirmSchema,
  settingsUpdateSchema,
} from '@parley/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { requireAuth, sessionOf } from '../../platform/auth';
import { BadRequestError } from '../../platform/errors';
import { enforceLimit } from '../../platform/rate-limit-policy';
import { parseBody } from '../../platform/validate';
import { accountSecurityRoutes } from './account-security.routes';
import { apiTokensRoutes } from './api-tokens.routes';
import { oidcRoutes } from './oidc.routes';

/** Where a sign-in comes from, for the person's sessions list. */
const clientOf = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] ?? null });

// HTTP shape of the accounts API (SPEC §7). Each route: rate limit → auth → validate → service.
export async function accountsRoutes(app: FastifyInstance, ctx: AppContext) {
  const auth = requireAuth(ctx.sessions);
  /** The account's own keys (email, sign-out, deletion): a person signed in, never an API token. */
  const account = requireAuth(ctx.sessions, { signedIn: true });
  const signups = ctx.config.signupsPerIpHour;
  const perIp = (name: string, limit: number) => async (req: { ip: string }) =>
    enforceLimit(ctx.limiter, `ip:${name}:${req.ip}`, limit, 60 * 60_000);

  app.post('/users/register/', { preHandler: perIp('register', signups) }, async (req) =>
    ctx.signUp.register(
      parseBody(registerSchema, req.body),
      req.log,
      localeFor(acceptedLanguages(req.headers['accept-language'])),
    ),
  );

  app.post('/users/email/verify/signup/', { preHandler: perIp('verify', signups * 3 + 10) }, async (req) => {
    const body = parseBody(emailCodeSchema, req.body);
    return ctx.signUp.verifySignup(body.email, body.verification_code, clientOf(req));
  });

  app.post('/users/email/resend/signup/', { preHandler: perIp('mail', signups * 2) }, async (req) =>
    ctx.signUp.resendSignup(parseBody(emailOnlySchema, req.body).email, req.log),
  );

  app.post('/users/login/', async (req) => {
    const body = parseBody(loginSchema, req.body);
    return ctx.signIn.login(body.email, body.password, body.remember_me, req.ip, {
      totpCode: body.totp_code,
      client: clientOf(req),
    });
  });

  app.post('/users/logout/', { preHandler: account }, async (_req, reply) => {
    await ctx.signIn.logout(sessionOf(_req));
    return reply.code(200).send({ detail: 'Logged out.' });
  });

  app.post('/users/password/reset/request/', { preHandler: perIp('mail', signups * 2) }, async (req) =>
    ctx.passwordReset.requestReset(parseBody(emailOnlySchema, req.body).email, req.log),
  );

  app.post(
    '/users/password/reset/verify/',
    { preHandler: perIp('verify', signups * 3 + 10) },
    async (req) => {
      const body = parseBody(emailCodeSchema, req.body);
      return ctx.passwordReset.verifyReset(body.email, body.verification_code);
    },
  );

  app.post(
    '/users/password/reset/confirm/',
    { preHandler: perIp('verify', signups * 3 + 10) },
    async (req) => {
      const body = parseBody(resetConfirmSchema, req.body);
      return ctx.passwordReset.confirmReset(body.email, body.verification_code, body.new_password);
    },
  );

  app.get('/users/profile/', { preHandler: auth }, async (req) =>
    ctx.accountSettings.ownProfile(sessionOf(req).userId),
  );

  app.get('/users/profile/settings/', { preHandler: auth }, async (req) =>
    ctx.accountSettings.settings(sessionOf(req).userId),
  );

  app.put('/users/profile/settings/', { preHandler: auth }, async (req) =>
    ctx.accountSettings.updateSettings(sessionOf(req).userId, parseBody(settingsUpdateSchema, req.body)),
  );

  app.put('/users/email/update/', { preHandler: account }, async (req) =>
    ctx.accountSettings.requestEmailChange(
      sessionOf(req).userId,
      parseBody(emailUpdateSchema, req.body).email,
    ),
  );

  app.post('/users/email/verify/code/', { preHandler: account }, async (req) =>
    ctx.accountSettings.confirmEmailChange(
      sessionOf(req).userId,
      parseBody(codeOnlySchema, req.body).verification_code,
    ),
  );

  await accountSecurityRoutes(app, ctx);
  await apiTokensRoutes(app, ctx);
  await oidcRoutes(app, ctx);

  /** Each try checks the password: a handful an hour is plenty for a person, too few to guess it. */
  const deleteLimit = async (req: { session: { userId: number } | null }) =>
    enforceLimit(ctx.limiter, `account-delete:${req.session?.userId}`, 10, 60 * 60_000);

  app.delete('/users/account/delete/', { preHandler: [account, deleteLimit] }, async (req, reply) => {
    // A client that sends no password (SPEC's bodiless call) is told what is missing, not which field.
    const body = req.body as { password?: unknown } | null | undefined;
    if (typeof body?.password !== 'string' || body.password === '')
      throw new BadRequestError(ACCOUNT_DELETE_MSG.passwordNeeded);
    await ctx.accountSettings.deleteOwnAccount(sessionOf(req).userId, parseBody(accountDeleteSchema, body));
    return reply.code(204).send();
  });
}
