import { z } from 'zod';

// HTTP response schemas for Fastify's serialiser (fast-json-stringify), generated from the protocol's zod
// schemas so a field added to the contract is served at once; never written by hand.

type JsonSchema = { [key: string]: unknown };

/**
 * Keeps what serialising needs (types, properties, items) and turns a nullable `anyOf` into a type list: the
 * serialiser then writes without validating, and no field is required, so the output is byte for byte what
 * JSON.stringify gives for the same object.
 */
function forSerialising(schema: JsonSchema): JsonSchema {
  const variants = schema.anyOf as JsonSchema[] | undefined;
  if (variants?.every((v) => typeof v.type === 'string' && Object.keys(v).every((k) => k !== 'properties'))) {
    return { type: variants.map((v) => v.type as string) };
  }
  const out: JsonSchema = {};
  if (schema.type !== undefined) out.type = schema.type;
  if (schema.items !== undefined) out.items = forSerialising(schema.items as JsonSchema);
  if (schema.properties !== undefined) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties as Record<string, JsonSchema>).map(([k, v]) => [k, forSerialising(v)]),
    );
  }
  return out;
}

/** The JSON Schema Fastify serialises a 200 answer with, from the contract's zod schema. */
export const responseSchema = (schema: z.ZodType): JsonSchema =>
  forSerialising(z.toJSONSchema(schema, { target: 'draft-7', io: 'output' }) as JsonSchema);
