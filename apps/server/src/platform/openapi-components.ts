import { z } from 'zod';

// The named schemas of the published API's document (openapi.ts): the protocol's zod schemas the routes use,
// converted once, in both readings (a request's input, an answer's output), and pruned to what the paths reach.

export type Json = Record<string, unknown>;

export const componentName = (exportName: string) => {
  const base = exportName.replace(/Schema$/, '');
  return base[0]?.toUpperCase() + base.slice(1);
};
export const isZod = (value: unknown): value is z.ZodType => value instanceof z.ZodType;

/**
 * The named schemas of the document: every zod schema the routes use, under its protocol name when `named`
 * knows it (so the same Message is one component however many routes answer with it), else under a name made
 * from the route. Requests are read as inputs (defaults optional) and answers as outputs; a schema whose two
 * readings differ is two components, `Name` and `NameInput`.
 */
export class Components {
  private readonly ids = new Map<z.ZodType, string>();
  private readonly taken = new Set<string>();
  /** The ids made up for schemas the protocol does not name: written inline where used, not as components. */
  readonly anonymous = new Set<string>();

  constructor(private readonly named: Map<z.ZodType, string>) {}

  /** Registers a schema used by a route and returns its id. */
  use(schema: z.ZodType, fallback: string): string {
    const known = this.ids.get(schema);
    if (known) return known;
    let id = this.named.get(schema) ?? fallback;
    for (let n = 2; this.taken.has(id); n++) id = `${this.named.get(schema) ?? fallback}${n}`;
    this.ids.set(schema, id);
    this.taken.add(id);
    if (!this.named.has(schema)) this.anonymous.add(id);
    return id;
  }

  /** Every schema the protocol names that appears inside a used one is shared too, not copied. */
  build(): { schemas: Record<string, Json>; inputName: (id: string) => string } {
    for (const [schema, name] of this.named) if (!this.ids.has(schema)) this.ids.set(schema, name);
    const registry = z.registry<{ id: string }>();
    for (const [schema, id] of this.ids) if (!registry.has(schema)) registry.add(schema, { id });
    const convert = (io: 'input' | 'output', suffix: string) =>
      z.toJSONSchema(registry, {
        target: 'draft-2020-12',
        io,
        unrepresentable: 'any',
        cycles: 'ref',
        reused: 'inline',
        uri: (id) => `#/components/schemas/${id}${suffix}`,
      }).schemas as Record<string, Json>;
    const output = convert('output', '');
    const input = convert('input', '__in');
    // Which inputs differ from their outputs: by themselves, or through a schema they hold that differs.
    const strip = (schema: Json) => JSON.stringify(schema).replaceAll('__in"', '"');
    const differs = new Set(
      Object.keys(input).filter((id) => strip(input[id] as Json) !== JSON.stringify(output[id])),
    );
    for (let grew = true; grew; ) {
      grew = false;
      for (const id of Object.keys(input)) {
        if (differs.has(id)) continue;
        const text = JSON.stringify(input[id]);
        if ([...differs].some((d) => text.includes(`/${d}__in"`))) {
          differs.add(id);
          grew = true;
        }
      }
    }
    const inputName = (id: string) =>
      differs.has(id) ? `${id}${id.endsWith('Input') ? 'Body' : 'Input'}` : id;
    const fixRefs = (schema: Json): Json =>
      JSON.parse(
        JSON.stringify(schema).replace(/\/([A-Za-z0-9_]+)__in"/g, (_, id: string) => `/${inputName(id)}"`),
      );
    const schemas: Record<string, Json> = {};
    // An answer may gain fields: a client should not refuse one it does not know (zod writes them closed).
    for (const [id, schema] of Object.entries(output)) schemas[id] = clean(openObjects(schema) as Json);
    for (const id of differs) schemas[inputName(id)] = clean(fixRefs(input[id] as Json));
    return { schemas, inputName };
  }
}

/** The schema without `additionalProperties: false`, at any depth. */
function openObjects(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(openObjects);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, v]) => !(key === 'additionalProperties' && v === false))
      .map(([key, v]) => [key, openObjects(v)]),
  );
}

/** Drops what a component does not need inside the document ($schema, its own $id). */
export function clean(schema: Json): Json {
  const { $schema: _schema, id: _id, $id: _dollarId, ...rest } = schema;
  return rest;
}

/** Only the components the paths reach (the protocol names far more than the HTTP API uses). */
export function reachable(paths: Json, schemas: Record<string, Json>): Record<string, Json> {
  const kept: Record<string, Json> = {};
  const queue = [JSON.stringify(paths)];
  while (queue.length > 0) {
    const text = queue.pop() as string;
    for (const match of text.matchAll(/"#\/components\/schemas\/([A-Za-z0-9_]+)"/g)) {
      const id = match[1] as string;
      if (kept[id] || !schemas[id]) continue;
      kept[id] = schemas[id];
      queue.push(JSON.stringify(schemas[id]));
    }
  }
  return Object.fromEntries(Object.entries(kept).sort(([a], [b]) => a.localeCompare(b)));
}
