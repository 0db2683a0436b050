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
