import type { JsonSchema } from '@swarm/core';
import { z } from 'zod';

/** Checks arguments against a JSON Schema: `undefined` when they fit, else what is wrong, for the model. */
export type ArgumentCheck = (args: unknown) => string | undefined;

/**
 * Tool parameters that are a JSON Schema, not a zod shape: the model is sent `schema` as it is (zod
 * asks each schema for its own JSON Schema first, and this one answers with a copy of `schema`),
 * and the arguments the model sends are validated by `check` before the tool runs. Converting the
 * schema to zod and back would drop what zod cannot say (`$ref`, `oneOf` details, formats, ...).
 */
export function jsonSchemaParameters(schema: JsonSchema, check: ArgumentCheck): z.ZodObject {
  const anyObject = z.looseObject({});
  const validated = z.superRefine((args: unknown, ctx) => {
    const problem = check(args);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  });
  // A clone with the check in its definition, not `.superRefine()`: that one links the result to
  // the unchecked schema as its parent, and zod would describe the parent instead of asking the hook.
  const parameters = anyObject.clone({ ...anyObject.def, checks: [validated] });
  // A fresh copy per conversion: zod post-processes what the hook returns, and the server's schema
  // must stay as it came.
  parameters._zod.toJSONSchema = () => structuredClone(schema);
  return parameters;
}
