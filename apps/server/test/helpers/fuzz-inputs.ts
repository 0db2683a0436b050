import fc from 'fast-check';

// Inputs beyond the protocol's schemas, for fuzzing: values of the wrong kind, huge and deep ones, strings
// with lone surrogates and control characters, objects with fields missing or added, request bodies that are
// not JSON, not UTF-8 or not what their content type says, and path segments that are not ids.

/** A string that is not well-formed UTF-16 (a lone surrogate) or full of characters that upset code. */
export const nastyString = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(
      '\uD800',
      'a\uDFFFb',
      '\uDBFF\uDBFF',
      '\u0000',
      'a\u0000b',
      '\u202E\u200B\uFEFF',
      '%',
      '%00',
      '%ED%A0%80',
      '../../etc/passwd',
      "'; DROP TABLE users; --",
      '" OR 1=1 --',
      'NEAR(a b)',
      '"unterminated',
      '*',
      'a*b OR c',
      '\\',
      '@',
      '__proto__',
      'constructor',
      'toString',
      '1e400',
      'NaN',
      'Infinity',
      '-0',
      '0x10',
      '9007199254740993',
      ' ',
      '',
      '\t\n\r',
      '👩‍👩‍👧‍👦',
      '🇫🇷🇫🇷',
      'é',
      '\u0301',
    ),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 4 }).map((s) => `${s}\uD83D`),
  );

/** A string far past any length limit (the 1 MiB body limit stays above it). */
export const hugeString = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.integer({ min: 5_000, max: 300_000 }).map((n) => 'x'.repeat(n)),
    fc.integer({ min: 1_000, max: 40_000 }).map((n) => '😀'.repeat(n)),
    fc.integer({ min: 1_000, max: 20_000 }).map((n) => '\uD800'.repeat(n)),
  );

/** An array or object nested far deeper than any payload. */
export const deepValue = (): fc.Arbitrary<unknown> =>
  fc.tuple(fc.integer({ min: 50, max: 600 }), fc.boolean()).map(([depth, asArray]) => {
    let value: unknown = 1;
    for (let i = 0; i < depth; i++) value = asArray ? [value] : { a: value };
    return value;
  });

/** A value of any kind, often not the one a field wants. */
export const wrongValue = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    {
      arbitrary: fc.constantFrom(
        null,
        true,
        false,
        0,
        -1,
        -0,
        1.5,
        2 ** 53 + 2,
        -(2 ** 63),
        1e308,
        -1e308,
        5e-324,
      ),
      weight: 3,
    },
    { arbitrary: fc.constantFrom([], {}, [null], [[]], { '': '' }, [1, 2, 3], ['a']), weight: 2 },
    { arbitrary: nastyString(), weight: 3 },
    { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 2 },
    { arbitrary: hugeString(), weight: 1 },
    { arbitrary: deepValue(), weight: 1 },
    { arbitrary: fc.array(fc.integer(), { minLength: 500, maxLength: 3_000 }), weight: 1 },
  );

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keys an attacker tries on an object. */
const oddKey = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(
      '__proto__',
      'constructor',
      'prototype',
      'toString',
      'hasOwnProperty',
      '',
      'id',
      'user_id',
      'is_site_admin',
      'role',
    ),
    fc.string({ maxLength: 12 }),
  );

/**
 * A valid-looking value changed in one or a few places: a field replaced by a wrong value, removed, an
 * unexpected field added, an array element replaced, or the whole value swapped for something else.
 */
export function mutate(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const once = (value: unknown): fc.Arbitrary<unknown> => {
    if (isObject(value)) {
      const keys = Object.keys(value);
      const options: fc.Arbitrary<unknown>[] = [
        fc.tuple(oddKey(), wrongValue()).map(([k, v]) => {
          const out = { ...value };
          Object.defineProperty(out, k, { value: v, enumerable: true, configurable: true, writable: true });
          return out;
        }),
        wrongValue(),
      ];
      if (keys.length > 0) {
        options.push(
          fc.tuple(fc.constantFrom(...keys), wrongValue()).map(([k, v]) => ({ ...value, [k]: v })),
          fc.constantFrom(...keys).map((k) => {
            const { [k]: _, ...rest } = value;
            return rest;
          }),
          fc.constantFrom(...keys).chain((k) => once(value[k]).map((v) => ({ ...value, [k]: v }))),
        );
      }
      return fc.oneof(...options);
    }
    if (Array.isArray(value) && value.length > 0) {
      return fc.oneof(
        fc
          .tuple(fc.nat(value.length - 1), wrongValue())
          .map(([i, v]) => value.map((x, j) => (j === i ? v : x))),
        wrongValue(),
      );
    }
    return wrongValue();
  };
  return valid.chain((value) => fc.integer({ min: 1, max: 3 }).chain((n) => times(value, n)));
  function times(value: unknown, n: number): fc.Arbitrary<unknown> {
    return n === 0 ? fc.constant(value) : once(value).chain((v) => times(v, n - 1));
  }
}

/** A body as bytes, with the content type it is sent under (or none). */
export interface RawBody {
  bytes: Buffer | string;
  contentType: string | null;
}

/** JSON texts and byte strings that are not what a JSON route wants. */
export const rawBody = (json: fc.Arbitrary<unknown>): fc.Arbitrary<RawBody> => {
  const text = json.map((v) => JSON.stringify(v) ?? 'null');
  const jsonType = fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/json; charset=latin1',
    'application/JSON',
    'application/vnd.api+json',
  );
  const otherType = fc.constantFrom(
    null,
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data',
    'multipart/form-data; boundary=',
    'multipart/form-data; boundary=xyz',
    'application/octet-stream',
    'application/xml',
    '',
    ';;;',
    'application/json; boundary=x; charset=utf-16',
    '\u00e9/\u00e9',
  );
  const malformed = fc.oneof(
    text.chain((t) => fc.nat(Math.max(0, t.length - 1)).map((n) => t.slice(0, n))),
    text.map((t) => `${t},`),
    text.map((t) => `${t}${t}`),
    fc.constantFrom(
      '',
      '{',
      '}',
      '[',
      '{"a":}',
      "{'a': 1}",
      '{"a": 1,}',
      'undefined',
      'NaN',
      '{"__proto__": {"is_site_admin": true}}',
      '{"constructor": {"prototype": {"x": 1}}}',
      '{"a": 1e999999}',
      '{"a": "\\uD800"}',
      '{"a": "\\u0000"}',
      '\uFEFF{}',
      ' \n\t ',
      '{"a":"b"'.repeat(2),
    ),
    fc.integer({ min: 1_000, max: 100_000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
    fc.integer({ min: 1_000, max: 50_000 }).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`),
  );
  // Bytes that are not UTF-8: lone continuation bytes, an encoded surrogate (CESU-8), overlong forms, UTF-16.
  const badUtf8 = fc.oneof(
    fc.constantFrom(
      Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
      Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
      Buffer.from([0x7b, 0x22, 0xc0, 0xaf, 0x22, 0x3a, 0x31, 0x7d]),
      Buffer.from([0xfe, 0xff, 0x00, 0x7b, 0x00, 0x7d]),
      Buffer.from([0x80]),
    ),
    text.chain((t) =>
      fc
        .uint8Array({ minLength: 1, maxLength: 8 })
        .map((junk) => Buffer.concat([Buffer.from(t), Buffer.from(junk)])),
    ),
    fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)),
  );
  return fc.oneof(
    fc.record({ bytes: malformed, contentType: jsonType }),
    fc.record({ bytes: badUtf8, contentType: jsonType }),
    fc.record({ bytes: fc.oneof(text, malformed, badUtf8), contentType: otherType }),
  );
};

/**
 * encodeURIComponent that does not throw on a lone surrogate: it is sent as the three bytes UTF-8 would give it
 * (WTF-8), which are not valid UTF-8, the way a careless client writes it.
 */
export function encodeLoose(text: string): string {
  return text.replace(
    /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[^\uD800-\uDFFF]+|[\uD800-\uDBFF][\uDC00-\uDFFF]/g,
    (part) => {
      const unit = part.charCodeAt(0);
      if (part.length === 1 && unit >= 0xd800 && unit <= 0xdfff) {
        return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
          .map((b) => `%${b.toString(16).toUpperCase()}`)
          .join('');
      }
      return encodeURIComponent(part);
    },
  );
}

/** A path segment that is not a valid id of anything, already encoded for a URL. */
export const garbageSegment = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(
      '0',
      '-1',
      '1.5',
      '1e3',
      '9007199254740993',
      '99999999999999999999999999',
      'NaN',
      'null',
      'undefined',
      '%20',
      '%00',
      '%ED%A0%80',
      '%FF',
      '%',
      '%E0%A4%A',
      '..',
      '.',
      '%2e%2e',
      '%2F',
      '@',
      '%40%40',
      '__proto__',
      'constructor',
      '%F0%9F%98%80',
      'a'.repeat(5_000),
    ),
    nastyString()
      .map(encodeLoose)
      .filter((s) => s !== ''),
    fc.string({ minLength: 1, maxLength: 30 }).map(encodeLoose),
  );

/** Query strings: generated fields (possibly repeated, which Fastify turns into arrays), or garbage. */
export const queryString = (fields: fc.Arbitrary<unknown>): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constant(''),
    fields.map((v) => {
      if (!isObject(v)) return '';
      const params = new URLSearchParams();
      for (const [k, x] of Object.entries(v)) params.append(k, typeof x === 'string' ? x : JSON.stringify(x));
      return params.toString();
    }),
    fc
      .array(
        fc.tuple(
          fc.oneof(
            oddKey(),
            fc.constantFrom(
              'q',
              'limit',
              'before',
              'after',
              'around',
              'page',
              'chat_id',
              'sender',
              'from',
              'to',
              'type',
              'exp',
              'sig',
              'thumb',
              'token',
              'status',
              'cursor',
            ),
          ),
          fc.oneof(nastyString(), fc.nat().map(String)),
        ),
        {
          maxLength: 6,
        },
      )
      .map((pairs) => pairs.map(([k, v]) => `${encodeLoose(k)}=${encodeLoose(v)}`).join('&')),
    fc.constantFrom(
      'a=%',
      'a=%ED%A0%80',
      '%%%',
      '&&&',
      'a[b]=1',
      'a[]=1&a[]=2',
      'limit=1&limit=2',
      `q=${'x'.repeat(10_000)}`,
    ),
  );
