// Errors that map to one HTTP status each; the app's error handler is the only place that turns them into replies.
export type ErrorBody = { detail: unknown } | Record<string, string[]>;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(
      typeof (body as { detail?: unknown }).detail === 'string'
        ? String((body as { detail: string }).detail)
        : 'HTTP error',
    );
  }
}
export class BadRequestError extends HttpError {
  constructor(detail: unknown) {
    super(400, { detail });
  }
}
/** 400 with `{field: [messages]}` so the client can show the field's first message. */
export class FieldsError extends HttpError {
  constructor(fields: Record<string, string[]>) {
    super(400, fields);
  }
}
export class UnauthorizedError extends HttpError {
  constructor(detail = 'Authentication credentials were not provided.') {
    super(401, { detail });
  }
}
export class ForbiddenError extends HttpError {
  constructor(detail: unknown = 'You do not have permission to perform this action.') {
    super(403, { detail });
  }
}
export class NotFoundError extends HttpError {
  constructor(detail = 'Not found.') {
    super(404, { detail });
  }
}
export class ConflictError extends HttpError {
  constructor(detail: string) {
    super(409, { detail });
  }
}
export class PayloadTooLargeError extends HttpError {
  constructor(detail: string) {
    super(413, { detail });
  }
}
export class UnsupportedMediaTypeError extends HttpError {
  constructor(detail: string) {
    super(415, { detail });
  }
}
export class TooManyRequestsError extends HttpError {
  constructor(retryAfterSeconds: number, detail = 'Too many requests. Please try again later.') {
    super(429, { detail }, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}

/** What a request or a sent message hears while the database cannot be reached (a restart, a failover). */
export const DATABASE_UNAVAILABLE = 'The database is unavailable. Please try again.';
/** Seconds a client is asked to wait before trying again while the database is away. */
const DATABASE_RETRY_AFTER_S = 5;

/**
 * 503: the database cannot be reached, so nothing was done (or, for a commit cut short, a resend finds what was
 * stored: messages are deduplicated by client_id). `cause` keeps the driver's error for the logs.
 */
export class DatabaseUnavailableError extends HttpError {
  constructor(cause?: unknown) {
    super(503, { detail: DATABASE_UNAVAILABLE }, { 'retry-after': String(DATABASE_RETRY_AFTER_S) });
    this.name = 'DatabaseUnavailableError';
    if (cause !== undefined) this.cause = cause;
  }
}

/** Node's socket errors that mean the server's address does not answer, or the connection was cut. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server going away or not yet taking connections: class 08 (connection exception),
 * 57P01 admin_shutdown (a restart or failover ends the session), 57P02 crash_shutdown, 57P03 cannot_connect_now
 * (starting up, shutting down, or in recovery).
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03']);

/** node-postgres's own messages for a connection that died, was never made in time, or is no longer usable. */
const CONNECTION_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /^Client has encountered a connection error and is not queryable$/,
];

/**
 * Whether `err` says the database cannot be reached (as opposed to a statement it refused): the driver's socket
 * errors, its messages for a connection that ended, and the server's connection-class SQLSTATEs.
 */
export function isDatabaseUnreachable(err: unknown): boolean {
  if (err instanceof DatabaseUnavailableError) return true;
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (CONNECTION_CODES.has(code) || UNAVAILABLE_STATES.has(code)) return true;
    if (/^08[0-9A-Z]{3}$/.test(code)) return true;
  }
  if (CONNECTION_MESSAGES.some((m) => m.test(err.message))) return true;
  // Several addresses tried at once (localhost as ::1 and 127.0.0.1) fail together as one AggregateError.
  if (err instanceof AggregateError && err.errors.length > 0) return err.errors.every(isDatabaseUnreachable);
  return false;
}

/** `err` as a DatabaseUnavailableError when it says the database cannot be reached, unchanged otherwise. */
export function asDatabaseUnavailable(err: unknown): unknown {
  if (err instanceof DatabaseUnavailableError || !isDatabaseUnreachable(err)) return err;
  return new DatabaseUnavailableError(err);
}

/** What a send or an upload hears while the server's disk (the database's or the file store's) is full. */
export const STORAGE_FULL = 'The server is out of storage space. Please try again later.';

/**
 * 507: the write did not fit on the disk, so nothing was stored (SQLite rolls the statement back); once space
 * returns, a resend with the same client_id is stored once. `cause` keeps the original error for the logs.
 */
export class StorageFullError extends HttpError {
  constructor(cause?: unknown) {
    super(507, { detail: STORAGE_FULL });
    this.name = 'StorageFullError';
    if (cause !== undefined) this.cause = cause;
  }
}

/** fs errors of a full disk or an exhausted quota; SQLite's SQLITE_FULL and its I/O errors caused by one. */
const STORAGE_FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);

/** Whether `err` says the disk (or the quota) is full, as opposed to any other failed write. */
export function isStorageFull(err: unknown): boolean {
  if (err instanceof StorageFullError) return true;
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && STORAGE_FULL_CODES.has(code)) return true;
  // SQLite reports some writes that hit a full disk as an I/O error whose text names it.
  if (
    typeof code === 'string' &&
    code.startsWith('SQLITE_IOERR') &&
    /disk is full|no space/i.test(err.message)
  ) {
    return true;
  }
  return err.cause !== undefined && err.cause !== err && isStorageFull(err.cause);
}

/** `err` as a StorageFullError when it says the disk is full, unchanged otherwise. */
export function asStorageFull(err: unknown): unknown {
  if (err instanceof StorageFullError || !isStorageFull(err)) return err;
  return new StorageFullError(err);
}

/** How often a full disk is logged while it refuses sends and uploads. */
const STORAGE_FULL_WARN_EVERY_MS = 60_000;
let lastStorageFullWarning = Number.NEGATIVE_INFINITY;

/**
 * Tells the log that a send or an upload was refused for a full disk: one warning a minute in this process,
 * whatever the traffic and whichever path refused it, not one per refusal.
 */
export function warnStorageFull(log: { warn(msg: string): void }): void {
  const now = Date.now();
  if (now - lastStorageFullWarning < STORAGE_FULL_WARN_EVERY_MS) return;
  lastStorageFullWarning = now;
  log.warn('sends and uploads refused: the disk is full');
}
