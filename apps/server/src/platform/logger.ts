import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config';

/** Hides a `token=` query value (socket tickets and session tokens) wherever a URL is logged. */
export const redactUrl = (url: string): string =>
  url.replace(/([?&](?:token|ticket)=)[^&#]*/gi, '$1[REDACTED]');

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
