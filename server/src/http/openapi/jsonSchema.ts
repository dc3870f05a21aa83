import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

const COMPONENT_REF = '#/components/schemas/';

/** Replaces `#/$defs/X` refs with the component each def became. */
function rewriteRefs(value: unknown, names: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, names));
  if (!value || typeof value !== 'object') return value;
  const out: JsonSchema = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === '$ref' && typeof inner === 'string' && inner.startsWith('#/$defs/')) {
      const id = decodeURIComponent(inner.slice('#/$defs/'.length));
      out[key] = COMPONENT_REF + (names.get(id) ?? id);
    } else {
      out[key] = rewriteRefs(inner, names);
    }
  }
  return out;
}

/**
 * Turns zod schemas into the document's JSON Schemas (2020-12, what OpenAPI 3.1 uses): schemas the contract
 * names (`.meta({ id })`) become `components.schemas` and are referenced; the rest is written inline. A request
 * body is documented as the client sends it (`input`: defaults optional, extra fields ignored unless strict), an
 * answer as the server sends it (`output`: no field beyond the listed ones).
 */
export class SchemaCollector {
  readonly components: Record<string, JsonSchema> = {};

  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const json = z.toJSONSchema(schema, {
      io,
      target: 'draft-2020-12',
      unrepresentable: 'any',
      // zod writes its ISO regex beside `format`: the format says it (the tests check it), the regex is noise.
      override: ({ jsonSchema }) => {
        if (jsonSchema.format === 'date-time' || jsonSchema.format === 'date') delete jsonSchema.pattern;
      },
    }) as JsonSchema;
    const { $schema: _schema, $defs, ...root } = json;
    const defs = ($defs ?? {}) as Record<string, JsonSchema>;
    // The same contract schema read as input differs (defaults optional, extra fields allowed): a name of its own.
    const names = new Map(Object.keys(defs).map((id) => [id, io === 'input' ? `${id}Input` : id]));
    for (const [id, def] of Object.entries(defs)) {
      const name = names.get(id) ?? id;
      const body = rewriteRefs(def, names) as JsonSchema;
      const existing = this.components[name];
      if (existing && !isDeepStrictEqual(existing, body)) {
        throw new Error(`two different schemas are named ${name} (\`.meta({ id })\` in contract/src/responses)`);
      }
      this.components[name] = body;
    }
    return rewriteRefs(root, names) as JsonSchema;
  }
}
