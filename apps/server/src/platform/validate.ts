import type { z } from 'zod';
import { BadRequestError, FieldsError } from './errors';

/** Parses a payload with a protocol schema; field problems become `{field: [messages]}`, the rest `{detail}`. */
export function parseBody<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  // A body that is not an object (an array, a string) is not a form with fields.
  if (input !== undefined && input !== null && (typeof input !== 'object' || Array.isArray(input))) {
    throw new BadRequestError('Invalid request.');
  }
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const fields: Record<string, string[]> = {};
  let general: string | null = null;
  for (const issue of result.error.issues) {
    const key = issue.path[0];
    if (typeof key === 'string') {
      fields[key] ??= [];
      // A missing or mistyped field reads as "required", not as zod's type wording.
      const message = issue.code === 'invalid_type' ? 'This field is required.' : issue.message;
      fields[key].push(message);
    } else general ??= issue.message;
  }
  if (Object.keys(fields).length > 0) throw new FieldsError(fields);
  throw new BadRequestError(general ?? 'Invalid request.');
}
