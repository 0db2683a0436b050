import { localText } from '../i18n/server-texts';

/** A failed API call. `status` is 0 when no response arrived; `body` is the parsed JSON, or the raw text. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    message = status === 0 ? 'No response from server' : `Request failed with status ${status}`,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get noResponse(): boolean {
    return this.status === 0;
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;

type Body = Record<string, unknown>;
const asBody = (body: unknown): Body | null =>
  body && typeof body === 'object' && !Array.isArray(body) ? (body as Body) : null;
const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value : null);

// The texts these helpers take from an error body are the API's English ones; each is shown in the reader's
// language by its catalog id (lib/i18n/server-texts.ts), unknown ones as they came.

/** The first message of a `{field: [messages]}` error body, skipping `detail`, `message` and `error`. */
export function firstFieldError(body: unknown, field?: string): string | null {
  const b = asBody(body);
  if (!b) return null;
  const keys = field ? [field] : Object.keys(b).filter((k) => !['detail', 'message', 'error'].includes(k));
  for (const key of keys) {
    const value = b[key];
    if (Array.isArray(value) && text(value[0])) return localText(value[0] as string);
    if (text(value)) return localText(value as string);
  }
  return null;
}

/** Field errors of a `{field: [messages]}` body, first message per field. */
export function fieldErrors(body: unknown): Record<string, string> {
  const b = asBody(body);
  const out: Record<string, string> = {};
  if (!b) return out;
  for (const [key, value] of Object.entries(b)) {
    if (Array.isArray(value) && text(value[0])) out[key] = localText(value[0] as string);
  }
  return out;
}

/**
 * SPEC §8's "server's error field first" rule: `error`, then a string `detail`, then the first field
 * message; otherwise the screen's own fallback text.
 */
export function serverErrorOr(error: unknown, fallback: string): string {
  if (!isApiError(error)) return fallback;
  const b = asBody(error.body);
  if (!b) return fallback;
  const said = text(b.error) ?? text(b.detail);
  return (said && localText(said)) ?? firstFieldError(b) ?? fallback;
}

export const bodyField = (body: unknown, key: string): unknown => asBody(body)?.[key];
