import fc from 'fast-check';
import type { z } from 'zod';

// Values for a zod schema of the protocol, made for fuzzing: mostly what the schema accepts (so a request gets
// past validation and into the services), sometimes one of the `known` values of the world under test (a real
// chat id, the person's password) where a string or number is asked for. zod-fast-check knows only zod 3; this
// walks zod 4's definitions (`schema._zod.def`) for the kinds the protocol uses and answers anything else with
// arbitrary JSON.

/** Values of the world under test that a generated string or number may take instead of a random one. */
export interface Known {
  strings: readonly string[];
  numbers: readonly number[];
}

type Def = {
  type: string;
  checks?: { _zod: { def: Record<string, unknown> } }[];
  [key: string]: unknown;
};

const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;

/** A JSON value of any shape, small. */
export const anyJson = (): fc.Arbitrary<unknown> => fc.jsonValue({ maxDepth: 3 });

const maxLength = (def: Def, fallback: number) => {
  let max = fallback;
  for (const check of def.checks ?? []) {
    const c = check._zod.def;
    if (c.check === 'max_length' && typeof c.maximum === 'number') max = Math.min(max, c.maximum);
    if (c.check === 'length_equals' && typeof c.length === 'number') max = c.length;
  }
  return max;
};
const minLength = (def: Def) => {
  let min = 0;
  for (const check of def.checks ?? []) {
    const c = check._zod.def;
    if (c.check === 'min_length' && typeof c.minimum === 'number') min = Math.max(min, c.minimum);
    if (c.check === 'length_equals' && typeof c.length === 'number') min = c.length;
  }
  return min;
};

function stringArbitrary(def: Def, known: Known): fc.Arbitrary<string> {
  const format = (def.format as string | undefined) ?? undefined;
  const pattern = (def.checks ?? [])
    .map((c) => c._zod.def)
    .find((c) => c.check === 'string_format' && c.format === 'regex')?.pattern as RegExp | undefined;
  const min = minLength(def);
  // Long enough to pass a minimum, not so long that every body is a wall of text (mutations make those).
  const max = Math.max(min, Math.min(maxLength(def, 64), min + 64));
  let base: fc.Arbitrary<string>;
  if (format === 'email') base = fc.emailAddress();
  else if (format === 'url') base = fc.webUrl();
  else if (format === 'uuid' || format === 'guid') base = fc.uuid();
  else if (format === 'datetime') base = fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
  else if (format === 'date')
    base = fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
  else if (pattern) base = fc.stringMatching(pattern).filter((s) => s.length >= min && s.length <= max);
  else
    base = fc.oneof(
      fc.string({ minLength: min, maxLength: max }),
      fc.string({ minLength: min, maxLength: max, unit: 'grapheme' }),
    );
  if (known.strings.length === 0) return base;
  return fc.oneof(
    { arbitrary: base, weight: 3 },
    { arbitrary: fc.constantFrom(...known.strings), weight: 1 },
  );
}

function numberArbitrary(def: Def, known: Known): fc.Arbitrary<number> {
  let min = -1e9;
  let max = 1e9;
  let integer = false;
  const checks = [...(def.checks ?? []).map((c) => c._zod.def), def];
  for (const c of checks) {
    if (c.check === 'number_format' || c.format === 'safeint' || c.format === 'int32') integer = true;
    if (c.check === 'greater_than' && typeof c.value === 'number')
      min = Math.max(min, c.inclusive ? c.value : c.value + (integer ? 1 : 1e-9));
    if (c.check === 'less_than' && typeof c.value === 'number')
      max = Math.min(max, c.inclusive ? c.value : c.value - (integer ? 1 : 1e-9));
  }
  if (min > max) [min, max] = [max, min];
  const base = integer
    ? fc.oneof(fc.integer({ min: Math.ceil(min), max: Math.floor(max) }), fc.constantFrom(Math.ceil(min)))
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  if (known.numbers.length === 0) return base;
  return fc.oneof(
    { arbitrary: base, weight: 3 },
    { arbitrary: fc.constantFrom(...known.numbers), weight: 1 },
  );
}

/** Values mostly accepted by `schema`; strings and numbers sometimes taken from `known`. */
export function zodArbitrary(schema: z.ZodType, known: Known, depth = 0): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const inner = (s: unknown) => zodArbitrary(s as z.ZodType, known, depth + 1);
  if (depth > 8) return anyJson();
  switch (def.type) {
    case 'string':
      return stringArbitrary(def, known);
    case 'number':
    case 'int':
      return numberArbitrary(def, known).map((n) => (def.coerce ? String(n) : n));
    case 'bigint':
      return fc.bigInt().map(String);
    case 'boolean':
      return def.coerce ? fc.constantFrom('true', 'false', '1', '0') : fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'undefined':
    case 'void':
      return fc.constant(undefined);
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, unknown>));
    case 'optional':
      return fc.option(inner(def.innerType), { nil: undefined, freq: 4 });
    case 'nullable':
      return fc.option(inner(def.innerType), { nil: null, freq: 4 });
    case 'default':
    case 'prefault':
    case 'catch':
      return fc.option(inner(def.innerType), { nil: undefined, freq: 4 });
    case 'nonoptional':
    case 'readonly':
      return inner(def.innerType);
    case 'pipe':
      // A transform's input is what is sent; a preprocess (transform → schema) is fed its output's kind.
      return defOf(def.in).type === 'transform' ? inner(def.out) : inner(def.in);
    case 'lazy':
      return inner((def.getter as () => unknown)());
    case 'array': {
      const max = Math.min(maxLength(def, 8), 8);
      return fc.array(inner(def.element), { minLength: Math.min(minLength(def), max), maxLength: max });
    }
    case 'tuple':
      return fc.tuple(...(def.items as unknown[]).map(inner));
    case 'union':
      return fc.oneof(...(def.options as unknown[]).map(inner));
    case 'intersection':
      return fc
        .tuple(inner(def.left), inner(def.right))
        .map(([a, b]) =>
          a && b && typeof a === 'object' && typeof b === 'object' ? { ...a, ...b } : (a ?? b),
        );
    case 'record':
      return fc.dictionary(
        stringArbitrary(defOf(def.keyType), known).filter((k) => k !== '__proto__'),
        inner(def.valueType),
        { maxKeys: 4 },
      );
    case 'object': {
      const shape = def.shape as Record<string, unknown>;
      const entries = Object.fromEntries(Object.entries(shape).map(([key, s]) => [key, inner(s)]));
      return fc.record(entries).map((value) => {
        // An optional field generated as undefined is left out, as JSON would.
        for (const key of Object.keys(value)) if (value[key] === undefined) delete value[key];
        return value;
      });
    }
    default:
      return anyJson();
  }
}
