import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import websocket from '@fastify/websocket';
import { CLOSE_SERVICE_RESTART, SOCKET_MAX_PAYLOAD_BYTES, USERNAME_MAX_LENGTH } from '@parley/protocol';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import { apiDocument } from './api-catalog';
import type { Config } from './config';
import type { AppContext } from './context';
import { ping } from './db/health.repo';
import { accountsRoutes } from './modules/accounts/accounts.routes';
import { adminRoutes } from './modules/admin/admin.routes';
import { attachmentsRoutes } from './modules/attachments/attachments.routes';
import { botsRoutes } from './modules/bots/bots.routes';
import { chatsRoutes } from './modules/chats/chats.routes';
import { groupsRoutes } from './modules/chats/groups.routes';
import { invitesRoutes } from './modules/chats/invites.routes';
import { commandsRoutes } from './modules/commands/commands.routes';
import { dataExportRoutes } from './modules/data-export/data-export.routes';
import { devMailRoutes } from './modules/dev/dev-mail.routes';
import { linkPreviewsRoutes } from './modules/link-previews/link-previews.routes';
import { messagesRoutes } from './modules/messages/messages.routes';
import { notificationsRoutes } from './modules/notifications/notifications.routes';
import { pinsRoutes } from './modules/pins/pins.routes';
import { pollsRoutes } from './modules/polls/polls.routes';
import { avatarMediaRoutes, profilesRoutes } from './modules/profiles/profiles.routes';
import { socketRoutes } from './modules/realtime/socket.routes';
import { reportsRoutes } from './modules/reports/reports.routes';
import { safetyRoutes } from './modules/safety/safety.routes';
import { savedRoutes } from './modules/saved/saved.routes';
import { searchRoutes } from './modules/search/search.routes';
import { hookPostRoutes, webhooksRoutes } from './modules/webhooks/webhooks.routes';
import { apiDocsRoutes } from './platform/api-docs';
import { answerClientError } from './platform/client-errors';
import { drainRequest } from './platform/drain';
import { HttpError, StorageFullError, warnStorageFull } from './platform/errors';
import { loggerOptions, redactUrl } from './platform/logger';
import { OutboxMailer } from './platform/mail';
import { bearerMatches, serveMetrics } from './platform/metrics';
import { securityHeadersFor } from './platform/security-headers';
import { buildContext, closeContext } from './services';

export interface ParleyServer {
  app: FastifyInstance;
  ctx: AppContext;
  /** Whether mail goes to the dev outbox at /dev/mail (no SMTP_URL, not in production). */
  servesDevOutbox: boolean;
  /** Listens on config.host:config.port (port 0 picks a free one) and returns the base URL. */
  start(): Promise<string>;
  stop(): Promise<void>;
}

const here = path.dirname(fileURLToPath(import.meta.url));
/** The published API's version (/api/openapi.json's info.version). */
const API_VERSION = '1.0.0';
/** How long /readyz waits for the database and Redis to answer. */
const READY_TIMEOUT_MS = 2000;
/**
 * 'ok' when `check` resolves within READY_TIMEOUT_MS, 'unavailable' otherwise: a database or Redis that hangs
 * (rather than refuses) is as unready as one that is down.
 */
async function answers(check: () => Promise<unknown>): Promise<'ok' | 'unavailable'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('no answer in time')), READY_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), late]);
    return 'ok';
  } catch {
    return 'unavailable';
  } finally {
    clearTimeout(timer);
  }
}
/** How long a stop waits for its sockets' clients to answer the 1012 close before cutting them off. */
const SOCKETS_CLOSE_MS = 2000;

/** apps/web/dist, seen from apps/server/src (tsx) and apps/server/dist (the bundle) alike. */
const defaultWebDist = path.resolve(here, '../../web/dist');

/** Builds the whole server: database (migrated), services, routes and static web. Tests build the same app. */
export async function buildApp(config: Config): Promise<ParleyServer> {
  const app = Fastify({
    logger: loggerOptions(config),
    // Only behind a proxy (TRUST_PROXY) may X-Forwarded-For name the client; otherwise anyone could dodge IP limits.
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // A path part as long as the longest username percent-encoded (150 letters of up to 4 bytes, 3 characters
    // each): Fastify's own 100 made the profile of a username past 100 characters 'User not found'.
    maxParamLength: USERNAME_MAX_LENGTH * 4 * 3,
    // On shutdown idle keep-alive connections are closed, so a restart or a test never waits on an idle client,
    // and requests being answered are finished (their connections close with the response, see onSend).
    forceCloseConnections: 'idle',
    // One line per request, written below (Fastify's own writes two).
    logController: new LogController({ disableRequestLogging: true }),
    // A proxy's request id is kept (so its log and ours meet); otherwise each request gets a fresh one.
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    // A URL that is not valid percent-encoding is refused in the API's shape, without echoing the URL back.
    frameworkErrors: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
      const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
      return reply.code(status).send({ detail: 'Malformed request.' });
    },
    // What Node's parser refuses before Fastify sees it (headers past 16 KiB, a broken request line) is answered
    // in the API's shape too, and the connection closed.
    clientErrorHandler: answerClientError,
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!/^[\w.:-]{1,64}$/.test(request.id)) request.id = randomUUID();
    reply.header('x-request-id', request.id);
  });
  // A stopping process asks for each connection to be closed with the response it is sending: the close waits
  // for requests being answered (forceCloseConnections: 'idle'), and a keep-alive connection left idle after
  // one would otherwise hold it until the proxy lets go.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (ctx.lifecycle.stopping) reply.header('connection', 'close');
    done(null, payload);
  });
  // In development requests log at debug, so a newcomer's log shows mails (and their codes) and warnings,
  // not every click; in production each request is one JSON line with its request id.
  const requestLevel = config.production ? 'info' : 'debug';
  app.addHook('onResponse', async (request, reply) => {
    ctx.metrics?.httpAnswered(
      request.routeOptions.url ?? 'unmatched',
      request.method,
      reply.statusCode,
      reply.elapsedTime,
    );
    if (reply.statusCode === 429) ctx.metrics?.rateLimitRefused('http');
    request.log[requestLevel](
      {
        method: request.method,
        url: redactUrl(request.url),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request',
    );
  });
  app.decorateRequest('session', null);

  const { ctx, sweep } = await buildContext(config, app.log);
  const { db, limiter, lifecycle, mailer } = ctx;

  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      if (error instanceof StorageFullError) warnStorageFull(request.log);
      return reply.code(error.status).headers(error.headers).send(error.body);
    }
    if (error.code === 'FST_REQ_FILE_TOO_LARGE' || error.statusCode === 413) {
      // The body was refused unread (its content-length is past the limit): read it first, or the client's
      // upload fails on a closed connection before it reads the 413.
      await drainRequest(request.raw);
      return reply.code(413).send({ detail: 'The upload is too large.' });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      // Fastify's own refusals (bad JSON, wrong content type): say what, never how.
      const detail =
        error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? 'Unsupported content type.' : 'Malformed request.';
      return reply.code(error.statusCode).send({ detail });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ detail: 'Something went wrong on our side. Please try again.' });
  });

  const webDist = config.webDist ?? defaultWebDist;
  const hasWeb = fs.existsSync(path.join(webDist, 'index.html'));
  // CSP and the other security headers, on every answer; the page's inline scripts are allowed by their hashes.
  const securityHeaders = securityHeadersFor(
    config.publicUrl,
    hasWeb ? fs.readFileSync(path.join(webDist, 'index.html'), 'utf8') : '',
  );
  app.addHook('onRequest', (request, reply, done) =>
    securityHeaders(request.raw, reply.raw, (err) => done(err as Error | undefined)),
  );
  await app.register(multipart, { limits: { fileSize: 30 * 1024 * 1024, files: 10, fields: 20 } });
  // The socket library's hard cap sits above the 64 KiB frame limit so an oversized frame gets an error
  // frame and the socket stays usable; past the hard cap the socket is closed.
  await app.register(websocket, { options: { maxPayload: 16 * SOCKET_MAX_PAYLOAD_BYTES } });
  await app.register(async (ws) => socketRoutes(ws, ctx));

  // Prometheus (METRICS_TOKEN): the metrics behind a bearer token; without one, /metrics is not served here.
  const { metrics } = ctx;
  const { metricsToken } = config;
  if (metrics && metricsToken) {
    app.get('/metrics', async (request, reply) => {
      if (!bearerMatches(request.headers.authorization, metricsToken))
        return reply.code(401).header('www-authenticate', 'Bearer').send({ detail: 'Not authorised.' });
      const { body, contentType } = await metrics.expose();
      return reply.type(contentType).send(body);
    });
  }

  // For load balancers and orchestrators: alive, and ready to take traffic (database and Redis answer).
  app.get('/healthz', async () => ({ status: 'ok' }));
  // Which dependency is down, for the balancer and the operator: a process whose Redis is away still serves its
  // own sockets (and says so with 503, so it is taken out of rotation), a stopping one says only that.
  app.get('/readyz', async (_req, reply) => {
    if (lifecycle.stopping) return reply.code(503).send({ status: 'stopping' });
    const [database, redis] = await Promise.all([
      answers(() => ping(db)),
      config.redisUrl ? answers(() => Promise.all([limiter.ping(), ctx.bus.ping?.()])) : undefined,
    ]);
    const components = redis ? { database, redis } : { database };
    if (database === 'ok' && (redis ?? 'ok') === 'ok') return { status: 'ready', ...components };
    return reply.code(503).send({ status: 'unavailable', ...components });
  });

  await app.register(
    async (api) => {
      api.get('/health', async () => ({ status: 'ok' }));
      await apiDocsRoutes(api, () => apiDocument(config.publicUrl, API_VERSION));
      await accountsRoutes(api, ctx);
      await dataExportRoutes(api, ctx);
      await chatsRoutes(api, ctx);
      await messagesRoutes(api, ctx);
      await pinsRoutes(api, ctx);
      await pollsRoutes(api, ctx);
      await linkPreviewsRoutes(api, ctx);
      await savedRoutes(api, ctx);
      await groupsRoutes(api, ctx);
      await invitesRoutes(api, ctx);
      await attachmentsRoutes(api, ctx);
      await profilesRoutes(api, ctx);
      await notificationsRoutes(api, ctx);
      await searchRoutes(api, ctx);
      await safetyRoutes(api, ctx);
      await reportsRoutes(api, ctx);
      await adminRoutes(api, ctx);
      await botsRoutes(api, ctx);
      await commandsRoutes(api, ctx);
      await webhooksRoutes(api, ctx);
      api.all('/*', async (_req, reply) => reply.code(404).send({ detail: 'Not found.' }));
    },
    { prefix: '/api' },
  );

  const servesDevOutbox = !config.production && mailer instanceof OutboxMailer;
  if (servesDevOutbox) await app.register(async (dev) => devMailRoutes(dev, mailer));

  await app.register(async (media) => avatarMediaRoutes(media, ctx));
  await app.register(async (hooks) => hookPostRoutes(hooks, ctx));

  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      prefix: '/',
      wildcard: false,
      // The web build writes Brotli and gzip copies beside its text files: sent to browsers that accept them.
      preCompressed: true,
      // Cache-Control is set here alone (the plugin's own header would replace it): hashed assets are kept a
      // year, everything else (index.html, sw.js, the manifest, icons) is revalidated on each use.
      cacheControl: false,
      setHeaders(res, file) {
        res.setHeader('vary', 'accept-encoding');
        res.setHeader(
          'cache-control',
          file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    // Any other GET that looks like a page is the single-page app; the web router shows its own 404.
    if (
      hasWeb &&
      request.method === 'GET' &&
      !request.url.startsWith('/api/') &&
      !request.url.startsWith('/ws/')
    ) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).send({ detail: 'Not found.' });
  });

  let metricsServer: Server | null = null;
  app.addHook('onClose', async () => {
    if (metricsServer) await new Promise((resolve) => metricsServer?.close(resolve));
    // What the sockets started (frames, close handling) runs on the database and Redis closed next. stop() has
    // waited once already; this covers a socket that was still opening when the stop began, which the app's
    // close itself closes (its close handling starts here), and a close without stop().
    await lifecycle.settled();
    await closeContext(ctx, sweep);
  });

  return {
    app,
    ctx,
    servesDevOutbox,
    async start() {
      // A deep accept queue: after a restart every client reconnects at once, and a connection the queue has no
      // room for is dropped and retried by the client's TCP a second or more later (Node's default is 511; the
      // kernel caps it at net.core.somaxconn, 4096 on current Linux).
      const url = await app.listen({ port: config.port, host: config.host, backlog: 4096 });
      if (metrics && config.metricsPort !== null)
        metricsServer = await serveMetrics(metrics, config.host, config.metricsPort);
      return url;
    },
    /**
     * A graceful stop: /readyz answers 503 and new sockets are turned away, open sockets close with 1012 so
     * their clients reconnect to another process at once; once they are closed (or cut off after
     * SOCKETS_CLOSE_MS), the frames they sent meanwhile and their close handling are finished, then the group
     * commit in flight, then the app closes.
     */
    async stop() {
      lifecycle.stopping = true;
      await ctx.hub.closeAll(CLOSE_SERVICE_RESTART, 'Service restart', SOCKETS_CLOSE_MS);
      await lifecycle.settled();
      await ctx.messages.writesSettled();
      await app.close();
    },
  };
}
