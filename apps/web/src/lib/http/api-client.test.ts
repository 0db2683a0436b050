import { describe, expect, it, vi } from 'vitest';
import { createApiClient } from './api-client';
import { ApiError, fieldErrors, serverErrorOr } from './api-error';

const json = (status: number, body: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

describe('api client', () => {
  it('sends JSON with the bearer token and parses the answer', async () => {
    const fetchImpl = vi.fn().mockResolvedValue(json(200, { ok: true }));
    const client = createApiClient({ baseUrl: '/api', getToken: () => 'tok', fetchImpl });
    await expect(client.post('/users/login/', { a: 1 })).resolves.toEqual({ ok: true });
    const [url, init] = fetchImpl.mock.calls[0]!;
    expect(url).toBe('/api/users/login/');
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"a":1}');
    expect(init.headers).toMatchObject({ Authorization: 'Bearer tok', 'Content-Type': 'application/json' });
  });

  it('sends no token from the public client', async () => {
    const fetchImpl = vi.fn().mockResolvedValue(json(200, {}));
    await createApiClient({ baseUrl: '/api', fetchImpl }).get('/x');
    expect(fetchImpl.mock.calls[0]![1].headers.Authorization).toBeUndefined();
  });

  it('throws ApiError with status and parsed body', async () => {
    const fetchImpl = vi.fn().mockResolvedValue(json(400, { detail: 'Nope' }));
    const error = await createApiClient({ baseUrl: '', fetchImpl })
      .get('/x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, body: { detail: 'Nope' } });
  });

  it('keeps a non-JSON body as text', async () => {
    const fetchImpl = vi.fn().mockResolvedValue(new Response('Bad gateway', { status: 502 }));
    const error = await createApiClient({ baseUrl: '', fetchImpl })
      .get('/x')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, body: 'Bad gateway' });
  });

  it('turns a network failure into status 0', async () => {
    const fetchImpl = vi.fn().mockRejectedValue(new TypeError('Failed to fetch'));
    const error = await createApiClient({ baseUrl: '', fetchImpl })
      .get('/x')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 0, noResponse: true });
  });

  it('calls the 401 handler unless told not to', async () => {
    const onUnauthorized = vi.fn();
    const fetchImpl = vi
      .fn()
      .mockImplementation(async () => json(401, { detail: 'Invalid or expired token.' }));
    const client = createApiClient({ baseUrl: '', fetchImpl, onUnauthorized, getToken: () => 't' });
    await client.get('/x').catch(() => undefined);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(onUnauthorized).toHaveBeenCalledWith('t');
    await client.post('/users/logout/', undefined, { ignoreUnauthorized: true }).catch(() => undefined);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('tells the 401 handler that no token was sent', async () => {
    const onUnauthorized = vi.fn();
    const fetchImpl = vi
      .fn()
      .mockImplementation(async () => json(401, { detail: 'Authentication required.' }));
    await createApiClient({ baseUrl: '', fetchImpl, onUnauthorized, getToken: () => null })
      .get('/x')
      .catch(() => undefined);
    expect(onUnauthorized).toHaveBeenCalledWith(null);
  });

  it('answers null for 204', async () => {
    const fetchImpl = vi.fn().mockResolvedValue(new Response(null, { status: 204 }));
    await expect(createApiClient({ baseUrl: '', fetchImpl }).delete('/x')).resolves.toBeNull();
  });
});

describe('error helpers', () => {
  it('serverErrorOr takes error, then detail, then a field message, then the fallback', () => {
    expect(serverErrorOr(new ApiError(400, { error: 'E', detail: 'D' }), 'F')).toBe('E');
    expect(serverErrorOr(new ApiError(400, { detail: 'D' }), 'F')).toBe('D');
    expect(serverErrorOr(new ApiError(400, { email: ['Taken'] }), 'F')).toBe('Taken');
    expect(serverErrorOr(new ApiError(500, null), 'F')).toBe('F');
    expect(serverErrorOr(new Error('x'), 'F')).toBe('F');
  });

  it('fieldErrors keeps the first message per field', () => {
    expect(fieldErrors({ username: ['A', 'B'], email: ['C'], detail: 'x' })).toEqual({
      username: 'A',
      email: 'C',
    });
  });
});
