import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config';

/**
 * Hides query values that must never reach a log wherever a URL is logged: `token=`/`ticket=` (socket tickets,
 * session tokens), `sig=` (a signed file URL is a capability), `q=` (message search words quote bodies) and
 * `code=`/`state=` (what an OpenID provider sends single sign-on's callback).
 */
export const redactUrl = (url: string): string =>
  url
    .replace(/([?&](?:token|ticket|sig|q|code|state)=)[^&#]*/gi, '$1[REDACTED]')
    // An incoming webhook's URL is its secret.
    .replace(/^(\/hooks\/)[^/?#]+/, '$1[REDACTED]');

export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["sec-websocket-protocol"]',
        'token',
        '*.token',
        '*.password',
      ],
      censor: '[REDACTED]',
    },
    serializers: {
      req(req) {
        return { method: req.method, url: redactUrl(req.url), remoteAddress: req.ip };
      },
    },
    ...(config.production || config.env === 'test'
      ? {}
      : {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' },
          },
        }),
  };
}
