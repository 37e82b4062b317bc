import type { JsonSchema } from '../contracts/model.js';

/**
 * A small value that satisfies a JSON Schema as zod emits it: the first enum member or const, the
 * minimum of a number, `false`, one item of an array (or `minItems`), the required properties of an object.
 * Enough to answer any `generateObject` call in a test without writing its arguments by hand.
 */
export function sampleFromSchema(schema: JsonSchema, path = 'value'): unknown {
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) {
      const usable = (options as JsonSchema[]).find((o) => o.type !== 'null') ?? (options[0] as JsonSchema);
      return sampleFromSchema(usable, path);
    }
  }
  if ('default' in schema) return schema.default;
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      // Required properties only: an optional one (a `dependsOn` list, say) is the least-committal answer left out.
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
      return Object.fromEntries(
        Object.entries(properties)
          .filter(([key]) => required.has(key))
          .map(([key, value]) => [key, sampleFromSchema(value, key)]),
      );
    }
    case 'array': {
      const items = (schema.items ?? {}) as JsonSchema;
      const count = Math.max(Number(schema.minItems ?? 1), 1);
      return Array.from({ length: count }, (_, i) => sampleFromSchema(items, `${path}${i + 1}`));
    }
    case 'string': {
      const text = `${path}`;
      const min = Number(schema.minLength ?? 0);
      return text.length >= min ? text : text.padEnd(min, '.');
    }
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? schema.exclusiveMinimum;
      if (typeof min === 'number')
        return type === 'integer' ? Math.ceil(min + (schema.exclusiveMinimum === min ? 1 : 0)) : min;
      return 0;
    }
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return `${path}`;
  }
}
