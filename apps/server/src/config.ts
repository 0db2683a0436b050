import path from 'node:path';
import { z } from 'zod';
import { parseStorageUrl, type S3Settings, type StorageSpec } from './platform/storage-url';

// The environment, parsed and validated once at start. Nothing else reads process.env.
const schema = z.object({
  NODE_ENV: z.string().default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  REDIS_URL: z.string().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Parley <no-reply@parley.local>'),
  PUBLIC_URL: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  EMAIL_NOTIFY_DELAY_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(10 * 60 * 1000),
  MESSAGE_RATE_LIMIT: z.coerce.number().int().min(1).default(20),
  SOCKETS_PER_USER: z.coerce.number().int().min(1).default(30),
  SOCKET_TICKETS_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  SOCKET_PING_SECONDS: z.coerce.number().int().min(5).max(3600).default(30),
  SOCKET_OPENINGS_IN_FLIGHT: z.coerce.number().int().min(1).default(40),
  SOCKET_OPENINGS_QUEUED: z.coerce.number().int().min(0).default(2000),
  SIGNUPS_PER_IP_HOUR: z.coerce.number().int().min(1).default(30),
  TRUST_PROXY: z.enum(['true', 'false', 'loopback']).default('false'),
  /** Tests only: let Web Push reach a push service on this machine. */
  PUSH_ALLOW_PRIVATE_ENDPOINTS: z.enum(['true', 'false']).default('false'),
  /** Previews of the first link of a message, fetched by the server. */
  LINK_PREVIEWS: z.enum(['true', 'false']).default('true'),
  /** Tests only: let link previews reach loopback and private addresses, on any port. */
  PREVIEW_ALLOW_PRIVATE_HOSTS: z.enum(['true', 'false']).default('false'),
  /** Tests only: let bots' events and commands reach http and loopback or private addresses. */
  EVENTS_ALLOW_PRIVATE_HOSTS: z.enum(['true', 'false']).default('false'),
  /** Where files go: local (DATA_DIR/media, the default), file:///path, or s3://bucket[/prefix]. */
  STORAGE_URL: z.string().optional(),
  /** The S3-compatible store's address (MinIO: http://minio:9000); AWS's own when unset. */
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  /** Path-style addresses (endpoint/bucket/key), which most self-hosted stores need. */
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('false'),
  AWS_ACCESS_KEY_ID: z.string().optional(),
  AWS_SECRET_ACCESS_KEY: z.string().optional(),
  /** Single sign-on: the OpenID provider's issuer URL and this server's client there; off while unset. */
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  /** The sign-in button's label: 'Sign in with {OIDC_NAME}'. */
  OIDC_NAME: z.string().min(1).max(40).default('SSO'),
  /** Password sign-up and sign-in off for everyone but site admins. */
  OIDC_ONLY: z.enum(['true', 'false']).default('false'),
  /** Prometheus metrics on /metrics behind this bearer token; off when neither this nor METRICS_PORT is set. */
  METRICS_TOKEN: z.string().min(16, 'use at least 16 characters').optional(),
  /** Prometheus metrics without a token on a port of their own (bind it where only Prometheus reaches). */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
});

export interface Config {
  env: string;
  production: boolean;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  /** PostgreSQL schema to use instead of `public` (tests isolate themselves with it). */
  databaseSchema: string | null;
  redisUrl: string | null;
  smtpUrl: string | null;
  mailFrom: string;
  publicUrl: string | null;
  logLevel: string;
  webDist: string | null;
  emailNotifyDelayMs: number;
  /** Chat messages one person may send per 10 s (DESIGN §7); benchmarks raise it. */
  messageRateLimit: number;
  /** Open sockets one person may hold, over every process (DESIGN §7); more are closed with 4029. */
  socketsPerUser: number;
  /** Socket tickets one person may take per minute. */
  socketTicketsPerMinute: number;
  /**
   * How often every socket is pinged and its session looked up (SocketSweep); one that has not answered the round
   * before is cut off. Shorter than a proxy's idle timeout; longer where the machine is slow to answer.
   */
  socketPingMs: number;
  /**
   * Socket openings (ticket, membership, presence) one process runs at once; the rest wait in order (2× the
   * PostgreSQL pool, so a reconnecting crowd cannot queue thousands of pool waits). Ticket requests have as many.
   */
  socketOpeningsInFlight: number;
  /** Openings (and ticket requests) that may wait for those; past it a handshake is refused with 503. */
  socketOpeningsQueued: number;
  /** Whether X-Forwarded-For names the client: true, false, or only from a proxy on loopback. */
  trustProxy: boolean | string;
  /** Web Push may call loopback and private addresses (a local push service in tests); never in a deployment. */
  pushAllowPrivateEndpoints: boolean;
  /** Whether messages get link previews (LINK_PREVIEWS). */
  linkPreviews: boolean;
  /** Link previews may fetch from loopback and private addresses, on any port (tests); never in a deployment. */
  previewAllowPrivateHosts: boolean;
  /** Bots' events and commands may reach http, loopback and private addresses (tests); never in a deployment. */
  eventsAllowPrivateHosts: boolean;
  /** A bot event's attempts: the waits before each retry (2 s, 10 s, 30 s: within a minute) and each deadline. */
  botEvents: { retryDelaysMs: number[]; timeoutMs: number };
  /** Single sign-on through an OpenID provider (OIDC_*), or null when not configured. */
  oidc: OidcSettings | null;
  metricsToken: string | null;
  metricsPort: number | null;
  /** Sign-ups one address may make per hour; code and mail requests are allowed proportionally more. */
  signupsPerIpHour: number;
  /** Argon2 memory cost in KiB; OWASP's 19 MiB unless a test lowers it. */
  argonMemoryKiB: number;
  /** Where stored files go (STORAGE_URL), and how to reach an S3-compatible store. */
  storage: StorageSpec;
  s3: S3Settings;
}

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The provider's name on the button. */
  name: string;
  /** OIDC_ONLY: passwords sign in site admins only, and nobody signs up with one. */
  only: boolean;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  if (Boolean(e.AWS_ACCESS_KEY_ID) !== Boolean(e.AWS_SECRET_ACCESS_KEY))
    throw new Error(
      'Invalid configuration: set both AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or neither.',
    );
  if (e.OIDC_ISSUER && !(e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET))
    throw new Error('Invalid configuration: OIDC_ISSUER needs OIDC_CLIENT_ID and OIDC_CLIENT_SECRET.');
  if (e.OIDC_ONLY === 'true' && !e.OIDC_ISSUER)
    throw new Error('Invalid configuration: OIDC_ONLY=true needs OIDC_ISSUER (no way to sign in otherwise).');
  let storage: StorageSpec;
  try {
    storage = parseStorageUrl(e.STORAGE_URL, path.resolve(e.DATA_DIR));
  } catch (err) {
    throw new Error(`Invalid configuration: STORAGE_URL: ${(err as Error).message}`);
  }
  return {
    env: e.NODE_ENV,
    production: e.NODE_ENV === 'production',
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL || null,
    databaseSchema: null,
    redisUrl: e.REDIS_URL || null,
    smtpUrl: e.SMTP_URL || null,
    mailFrom: e.MAIL_FROM,
    publicUrl: e.PUBLIC_URL ? e.PUBLIC_URL.replace(/\/+$/, '') : null,
    logLevel: e.LOG_LEVEL,
    webDist: e.WEB_DIST ? path.resolve(e.WEB_DIST) : null,
    emailNotifyDelayMs: e.EMAIL_NOTIFY_DELAY_MS,
    messageRateLimit: e.MESSAGE_RATE_LIMIT,
    socketsPerUser: e.SOCKETS_PER_USER,
    socketTicketsPerMinute: e.SOCKET_TICKETS_PER_MINUTE,
    socketPingMs: e.SOCKET_PING_SECONDS * 1000,
    socketOpeningsInFlight: e.SOCKET_OPENINGS_IN_FLIGHT,
    socketOpeningsQueued: e.SOCKET_OPENINGS_QUEUED,
    signupsPerIpHour: e.SIGNUPS_PER_IP_HOUR,
    trustProxy: e.TRUST_PROXY === 'loopback' ? 'loopback' : e.TRUST_PROXY === 'true',
    pushAllowPrivateEndpoints: e.PUSH_ALLOW_PRIVATE_ENDPOINTS === 'true',
    linkPreviews: e.LINK_PREVIEWS === 'true',
    previewAllowPrivateHosts: e.PREVIEW_ALLOW_PRIVATE_HOSTS === 'true',
    eventsAllowPrivateHosts: e.EVENTS_ALLOW_PRIVATE_HOSTS === 'true',
    botEvents: { retryDelaysMs: [2_000, 10_000, 30_000], timeoutMs: 5_000 },
    oidc:
      e.OIDC_ISSUER && e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET
        ? {
            issuer: e.OIDC_ISSUER,
            clientId: e.OIDC_CLIENT_ID,
            clientSecret: e.OIDC_CLIENT_SECRET,
            name: e.OIDC_NAME,
            only: e.OIDC_ONLY === 'true',
          }
        : null,
    metricsToken: e.METRICS_TOKEN || null,
    metricsPort: e.METRICS_PORT ?? null,
    argonMemoryKiB: 19 * 1024,
    storage,
    s3: {
      endpoint: e.S3_ENDPOINT ?? null,
      region: e.S3_REGION,
      forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
      credentials:
        e.AWS_ACCESS_KEY_ID && e.AWS_SECRET_ACCESS_KEY
          ? { accessKeyId: e.AWS_ACCESS_KEY_ID, secretAccessKey: e.AWS_SECRET_ACCESS_KEY }
          : null,
    },
    ...overrides,
  };
}
