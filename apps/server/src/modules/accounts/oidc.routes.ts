import {
  SSO_CALLBACK_PATH,
  SSO_CODE_KEY,
  SSO_ERROR_KEY,
  SSO_EXCHANGE_PATH,
  SSO_START_PATH,
  ssoExchangeSchema,
} from '@parley/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { NotFoundError } from '../../platform/errors';
import { enforceLimit } from '../../platform/rate-limit-policy';
import { parseBody } from '../../platform/validate';
import type { OidcService } from './oidc.service';
import { OidcUnavailableError } from './oidc-client';

/** The browser's half of a sign-in under way: the random id of its flow row, sent back only to these routes. */
const COOKIE = 'parley_sso';
const COOKIE_PATH = '/api/auth/oidc/';
const COOKIE_MAX_AGE_S = 600;
const INVITE = /^[A-Za-z0-9_-]{1,100}$/;

const cookieOf = (req: FastifyRequest): string | null => {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === COOKIE) return value.join('=') || null;
  }
  return null;
};

/**
 * Single sign-on's HTTP shape: the button's start (302 to the provider, the flow's id in an HttpOnly cookie
 * scoped to these routes), the provider's callback (302 back to the web app's /login with a one-time code or the
 * error's kind in the fragment, which no server or log sees), and the web app's exchange of that code for a
 * session. Every route is rate limited per address; all answer 404 while no provider is configured.
 */
export async function oidcRoutes(app: FastifyInstance, ctx: AppContext) {
  const signups = ctx.config.signupsPerIpHour;
  const perIp = (name: string, limit: number) => async (req: { ip: string }) =>
    enforceLimit(ctx.limiter, `ip:${name}:${req.ip}`, limit, 60 * 60_000);
  const oidc = (): OidcService => {
    if (!ctx.oidc) throw new NotFoundError();
    return ctx.oidc;
  };
  /** This server's address as the browser and the provider know it: PUBLIC_URL, else the request's own. */
  const origin = (req: FastifyRequest) => ctx.config.publicUrl ?? `${req.protocol}://${req.host}`;
  const redirectUri = (req: FastifyRequest) => `${origin(req)}${SSO_CALLBACK_PATH}`;
  const setCookie = (reply: FastifyReply, req: FastifyRequest, value: string, maxAge: number) => {
    const secure = origin(req).startsWith('https:') ? '; Secure' : '';
    reply.header(
      'set-cookie',
      `${COOKIE}=${value}; Path=${COOKIE_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`,
    );
  };
  const toApp = (reply: FastifyReply, fragment: string) =>
    reply
      .header('cache-control', 'no-store')
      .redirect(`${ctx.config.publicUrl ?? ''}/login#${fragment}`, 302);

  const flows = perIp('oidc', signups * 10);
  /** The routes are registered under /api. */
  const underApi = (path: string) => path.replace(/^\/api/, '');

  app.get(underApi(SSO_START_PATH), { preHandler: flows }, async (req, reply) => {
    const service = oidc();
    const invite = (req.query as { invite?: unknown }).invite;
    let started: { url: string; flowId: string };
    try {
      started = await service.start(
        redirectUri(req),
        typeof invite === 'string' && INVITE.test(invite) ? invite : null,
      );
    } catch (err) {
      if (!(err instanceof OidcUnavailableError)) throw err;
      req.log.warn({ err: err.message }, 'Single sign-on: the provider could not be reached');
      return toApp(reply, `${SSO_ERROR_KEY}=provider`);
    }
    setCookie(reply, req, started.flowId, COOKIE_MAX_AGE_S);
    return reply.header('cache-control', 'no-store').redirect(started.url, 302);
  });

  app.get(underApi(SSO_CALLBACK_PATH), { preHandler: flows }, async (req, reply) => {
    const service = oidc();
    const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
    const result = await service.callback(cookieOf(req), new URL(`${redirectUri(req)}${query}`), req.ip);
    setCookie(reply, req, '', 0);
    return 'code' in result
      ? toApp(reply, `${SSO_CODE_KEY}=${result.code}`)
      : toApp(reply, `${SSO_ERROR_KEY}=${result.error}`);
  });

  app.post(SSO_EXCHANGE_PATH, { preHandler: perIp('oidc-exchange', signups * 3 + 10) }, async (req) => {
    const body = parseBody(ssoExchangeSchema, req.body);
    return oidc().exchange(body.code, body.totp_code, {
      ip: req.ip,
      userAgent: req.headers['user-agent'] ?? null,
    });
  });
}
