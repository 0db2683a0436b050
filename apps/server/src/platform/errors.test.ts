import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  asDatabaseUnavailable,
  asStorageFull,
  DATABASE_UNAVAILABLE,
  DatabaseUnavailableError,
  HttpError,
  isDatabaseUnreachable,
  isStorageFull,
  NotFoundError,
  STORAGE_FULL,
  StorageFullError,
  warnStorageFull,
} from './errors';

// Which database errors mean "the database cannot be reached" (a restart, a failover, a cut network), answered
// 503 with a sentence, and which are a statement's own failure, left to the usual handling.

/** An error as node-postgres or Node's net module makes it: a message and a code. */
const withCode = (code: string, message = `failed with ${code}`) =>
  Object.assign(new Error(message), { code });

describe('isDatabaseUnreachable', () => {
  it.each([
    ['the server refused the connection', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['the connection was reset', withCode('ECONNRESET', 'read ECONNRESET')],
    ['a write on a closed socket', withCode('EPIPE', 'write EPIPE')],
    ['the address timed out', withCode('ETIMEDOUT', 'connect ETIMEDOUT 10.0.0.5:5432')],
    ['no route to the host', withCode('EHOSTUNREACH')],
    ["the host's name is not resolved (yet)", withCode('ENOTFOUND', 'getaddrinfo ENOTFOUND db')],
    [
      'admin_shutdown (a restart ends the session)',
      withCode('57P01', 'terminating connection due to administrator command'),
    ],
    ['crash_shutdown', withCode('57P02')],
    [
      'cannot_connect_now (starting up, in recovery)',
      withCode('57P03', 'the database system is starting up'),
    ],
    ['connection_exception', withCode('08000')],
    ['connection_does_not_exist', withCode('08003')],
    ['connection_failure', withCode('08006')],
    ['sqlclient_unable_to_establish_sqlconnection', withCode('08001')],
    ['the connection ended under a query', new Error('Connection terminated unexpectedly')],
    ['the connection ended', new Error('Connection terminated')],
    ['the connection took too long', new Error('Connection terminated due to connection timeout')],
    ["the pool's wait for a connection ran out", new Error('timeout exceeded when trying to connect')],
    [
      'a client whose connection failed',
      new Error('Client has encountered a connection error and is not queryable'),
    ],
    [
      'every address of localhost refused',
      new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], 'connect failed'),
    ],
    ['already mapped', new DatabaseUnavailableError()],
  ])('is true when %s', (_what, err) => {
    expect(isDatabaseUnreachable(err)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('23505', 'duplicate key value violates unique constraint')],
    ['an undefined table', withCode('42P01', 'relation "nope" does not exist')],
    [
      'a cancelled statement (statement_timeout)',
      withCode('57014', 'canceling statement due to statement timeout'),
    ],
    ['a serialization failure', withCode('40001')],
    ['a code that only starts like class 08', withCode('0800')],
    ["SQLite's busy database", withCode('SQLITE_BUSY', 'database is locked')],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a message that only mentions a connection', new Error('Connection refused by policy')],
    ['an HTTP refusal', new NotFoundError()],
    ['a mix of a refusal and a bug', new AggregateError([withCode('ECONNREFUSED'), new TypeError('x')])],
    ['an empty AggregateError', new AggregateError([])],
    ['a string', 'ECONNRESET'],
    ['nothing', undefined],
    ['an object with a code that is not an Error', { code: 'ECONNRESET' }],
  ])('is false for %s', (_what, err) => {
    expect(isDatabaseUnreachable(err)).toBe(false);
  });
});

describe('DatabaseUnavailableError', () => {
  it('is a 503 with the sentence as its only body, and a Retry-After', () => {
    const err = new DatabaseUnavailableError(withCode('ECONNRESET', 'read ECONNRESET'));
    expect(err).toBeInstanceOf(HttpError);
    expect(err.status).toBe(503);
    expect(err.body).toEqual({ detail: DATABASE_UNAVAILABLE });
    expect(err.headers).toEqual({ 'retry-after': '5' });
    // What the driver said stays for the logs, out of what a client is sent.
    expect(err.message).toBe(DATABASE_UNAVAILABLE);
    expect((err.cause as Error).message).toBe('read ECONNRESET');
    expect(JSON.stringify(err.body)).not.toContain('ECONNRESET');
  });

  it('says plainly what happened and what to do', () => {
    expect(DATABASE_UNAVAILABLE).toBe('The database is unavailable. Please try again.');
  });
});

describe('asDatabaseUnavailable', () => {
  it('maps a connection-class error to DatabaseUnavailableError, keeping it as the cause', () => {
    const original = withCode('57P01', 'terminating connection due to administrator command');
    const mapped = asDatabaseUnavailable(original);
    expect(mapped).toBeInstanceOf(DatabaseUnavailableError);
    expect((mapped as DatabaseUnavailableError).cause).toBe(original);
  });

  it('leaves every other error as it is', () => {
    for (const err of [withCode('23505'), new TypeError('bug'), new NotFoundError(), 'text']) {
      expect(asDatabaseUnavailable(err)).toBe(err);
    }
  });

  it('does not wrap twice', () => {
    const err = new DatabaseUnavailableError();
    expect(asDatabaseUnavailable(err)).toBe(err);
  });
});

describe('isStorageFull', () => {
  it.each([
    ['SQLite out of space', withCode('SQLITE_FULL', 'database or disk is full')],
    ['a full disk under the file store', withCode('ENOSPC', 'ENOSPC: no space left on device, write')],
    ['an exhausted quota', withCode('EDQUOT', 'EDQUOT: disk quota exceeded')],
    [
      'an SQLite I/O error naming a full disk',
      withCode('SQLITE_IOERR_WRITE', 'disk I/O error: no space left'),
    ],
    ['a full disk wrapped as a cause', new Error('upload failed', { cause: withCode('ENOSPC') })],
    ['its own error', new StorageFullError()],
  ])('recognises %s', (_what, err) => {
    expect(isStorageFull(err)).toBe(true);
  });

  it.each([
    ['another SQLite I/O error', withCode('SQLITE_IOERR_WRITE', 'disk I/O error')],
    ['a constraint', withCode('SQLITE_CONSTRAINT_UNIQUE')],
    ['a missing file', withCode('ENOENT')],
    ['a database outage', new DatabaseUnavailableError()],
    ['a bug', new TypeError('x is undefined')],
    ['not an error', 'ENOSPC'],
  ])('leaves %s alone', (_what, err) => {
    expect(isStorageFull(err)).toBe(false);
  });
});

describe('StorageFullError', () => {
  it('is a 507 with one clear sentence, keeping the cause out of the body', () => {
    const err = new StorageFullError(withCode('SQLITE_FULL', 'database or disk is full'));
    expect(err).toBeInstanceOf(HttpError);
    expect(err.status).toBe(507);
    expect(err.body).toEqual({ detail: STORAGE_FULL });
    expect(err.message).toBe('The server is out of storage space. Please try again later.');
    expect(JSON.stringify(err.body)).not.toContain('SQLITE');
  });
});

describe('asStorageFull', () => {
  it('maps a full disk to StorageFullError, keeping it as the cause', () => {
    const original = withCode('ENOSPC');
    const mapped = asStorageFull(original);
    expect(mapped).toBeInstanceOf(StorageFullError);
    expect((mapped as StorageFullError).cause).toBe(original);
  });

  it('leaves every other error as it is, and does not wrap twice', () => {
    for (const err of [withCode('23505'), new TypeError('bug'), new NotFoundError(), 'text']) {
      expect(asStorageFull(err)).toBe(err);
    }
    const full = new StorageFullError();
    expect(asStorageFull(full)).toBe(full);
  });
});

describe('warnStorageFull', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('warns once a minute however many sends and uploads are refused', () => {
    vi.useFakeTimers({ now: Date.parse('2026-11-28T10:00:00Z') });
    const warned: string[] = [];
    const log = { warn: (msg: string) => warned.push(msg) };
    warnStorageFull(log);
    for (let i = 0; i < 50; i++) warnStorageFull(log);
    vi.advanceTimersByTime(59_000);
    warnStorageFull(log);
    expect(warned).toEqual(['sends and uploads refused: the disk is full']);
    vi.advanceTimersByTime(1000);
    warnStorageFull(log);
    expect(warned).toHaveLength(2);
  });
});
