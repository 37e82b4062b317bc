import { z } from 'zod';
import type { JsonSchema, ResponseFormat } from '../contracts/model.js';
import { ConfigError } from '../kernel/errors.js';
import { describeZodError, type Tool, toJsonSchema, tool } from './tool.js';

/** The function an Agent with `outputType` ends its run through, on models without native JSON output. */
export const outputToolName = 'final_output';

/** Checks an Agent's `outputType`: a zod object (both providers' structured output take an object). */
export function validateOutputType(outputType: unknown, owner: string): z.ZodObject | undefined {
  if (outputType === undefined) return undefined;
  if (!(outputType instanceof z.ZodObject)) {
    throw new ConfigError(`${owner}: outputType must be a z.object(...) schema.`);
  }
  return outputType;
}

/**
 * An `outputType` option that takes either a format of the run's conversation (`'final'`, `'all'`,
 * ...) or a schema: a schema means the final answer, as a validated object, in `finalOutput`.
 */
export type FormatOrSchema<F extends string> =
  | { format: F; schema?: undefined }
  | { format: 'final'; schema: z.ZodObject };

/**
 * Tells the two kinds of a topology's `outputType` apart (undefined is `fallback`): one of
 * `formats`, or a `z.object(...)` schema. Anything else is a ConfigError naming the option.
 */
export function formatOrSchema<F extends string>(
  owner: string,
  value: unknown,
  formats: readonly F[],
  fallback: F,
): FormatOrSchema<F> {
  if (value === undefined) return { format: fallback };
  if (value instanceof z.ZodObject) return { format: 'final', schema: value };
  if (typeof value === 'string' && (formats as readonly string[]).includes(value)) {
    return { format: value as F };
  }
  const shown = value instanceof z.ZodType ? `a ${value.def.type} schema` : JSON.stringify(value);
  throw new ConfigError(
    `${owner}: outputType must be one of ${formats.map((f) => `'${f}'`).join(', ')}, or a z.object(...) schema for a typed final answer (got ${shown}).`,
  );
}

/**
 * The forced final tool of an agent with `outputType`: its arguments are validated against the
 * schema like any tool's (a failure goes back to the model to repair), and a valid call ends the run.
 */
export function outputTool(schema: z.ZodObject): Tool {
  let made = outputTools.get(schema);
  if (made === undefined) {
    made = makeOutputTool(schema);
    outputTools.set(schema, made);
  }
  return made;
}

// One final tool per schema, so that its definition is computed once.
const outputTools = new WeakMap<z.ZodObject, Tool>();

function makeOutputTool(schema: z.ZodObject): Tool {
  return tool({
    name: outputToolName,
    description: 'Give your final answer by calling this function; it ends your turn.',
    parameters: schema,
    endsRun: true,
    execute: (value) => value,
  });
}

const formats = new WeakMap<z.ZodObject, ResponseFormat>();

/**
 * The `response_format` of a schema for providers with native JSON output. Strict (the provider
 * guarantees the schema) when every object lists all its properties as required; such objects get
 * `additionalProperties: false`, as strict mode demands. Computed once per schema.
 */
export function responseFormatOf(schema: z.ZodObject): ResponseFormat {
  let format = formats.get(schema);
  if (format === undefined) {
    const json = structuredClone(toJsonSchema(schema)) as JsonSchema;
    const strict = closeObjects(json);
    format = Object.freeze({ type: 'json-schema', name: outputToolName, schema: json, strict });
    formats.set(schema, format);
  }
  return format;
}

// Sets `additionalProperties: false` on every object of the schema; returns whether every object
// requires all its properties (what strict mode needs).
function closeObjects(node: unknown): boolean {
  if (Array.isArray(node)) return node.map(closeObjects).every(Boolean);
  if (typeof node !== 'object' || node === null) return true;
  const schema = node as JsonSchema;
  let strict = true;
  if (schema.type === 'object' && typeof schema.properties === 'object' && schema.properties !== null) {
    const keys = Object.keys(schema.properties);
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    if (!keys.every((k) => required.has(k))) strict = false;
    if (schema.additionalProperties === undefined || schema.additionalProperties === true) {
      schema.additionalProperties = false;
    }
  }
  for (const value of Object.values(schema)) if (!closeObjects(value)) strict = false;
  return strict;
}

/**
 * What a model's JSON answer gave: the validated object, or the problem to send back for a repair.
 */
export function parseJsonAnswer<T>(
  schema: z.ZodType<T>,
  text: string,
): { value: T; problem?: undefined } | { problem: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { problem: 'the answer was not valid JSON' };
  }
  const parsed = schema.safeParse(data);
  if (parsed.success) return { value: parsed.data };
  return { problem: describeZodError(parsed.error) };
}
