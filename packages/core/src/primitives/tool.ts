import { z } from 'zod';
import type { JsonSchema, ToolDefinition } from '../contracts/model.js';
import { ConfigError } from '../kernel/errors.js';
import { isTimerMs, MAX_TIMER_MS } from '../kernel/option-checks.js';
import type { RunContext } from '../kernel/run-context.js';

/** What a tool's `execute` receives besides its arguments. */
export interface ToolContext {
  /** The agent calling the tool. */
  agent: string;
  /** The id of this call, as the model gave it. */
  toolCallId: string;
  signal: AbortSignal | undefined;
  run: RunContext;
}

/** A function the model can call, with zod-validated arguments. */
export interface Tool<P extends z.ZodObject = z.ZodObject, R = unknown> {
  readonly name: string;
  readonly description: string;
  readonly parameters: P;
  execute(args: z.output<P>, context: ToolContext): Promise<R> | R;
  /**
   * When a call of this tool succeeds, the agent's turn ends at once: calls after it in the same
   * response are answered as not executed. Handoff tools use this.
   */
  readonly endsRun?: boolean;
  /**
   * How long one call may take before it becomes a tool error the model sees (default: the agent's
   * `toolTimeoutMs`, else no limit).
   */
  readonly timeoutMs?: number;
  /**
   * A call waits for a person's approval before it runs: always (`true`), or when the function says
   * so for these arguments. Without a decision the run pauses (`RunPausedError`); `approvals`
   * given with the run's journal resume it.
   */
  readonly needsApproval?: NeedsApproval<z.output<P>>;
  /**
   * False: a run resumed from its journal executes this tool again instead of answering it from
   * the journal. For tools that only start runs nested in the calling run (`asTool` sets it): the
   * journal holds the nested run's own calls, so it replays them, with their events and totals.
   */
  readonly journaled?: boolean;
}

/** When a tool's calls need approval: always, never, or as a function of the arguments decides. */
export type NeedsApproval<A> = boolean | ((args: A, context: ToolContext) => boolean | Promise<boolean>);

/** Options of `tool()`. */
export interface ToolOptions<P extends z.ZodObject, R> {
  name: string;
  description: string;
  parameters: P;
  execute: (args: z.output<P>, context: ToolContext) => Promise<R> | R;
  endsRun?: boolean;
  /** How long one call may take before it becomes a tool error the model sees. */
  timeoutMs?: number;
  /** A call waits for a person's approval first: always, or when the function returns true. */
  needsApproval?: NeedsApproval<z.output<P>>;
  /** False: a resumed run executes this tool again rather than answering it from the journal. */
  journaled?: boolean;
}

const toolName = /^[a-zA-Z0-9_-]{1,64}$/;

/** Defines a tool; its JSON Schema comes from the zod object. */
export function tool<P extends z.ZodObject, R>(options: ToolOptions<P, R>): Tool<P, R> {
  if (!toolName.test(options.name)) {
    throw new ConfigError(
      `tool: name must be 1 to 64 letters, digits, "_" or "-" (got ${JSON.stringify(options.name)}).`,
    );
  }
  if (typeof options.description !== 'string') {
    throw new ConfigError(`tool "${options.name}": description must be a string.`);
  }
  if (!(options.parameters instanceof z.ZodObject)) {
    throw new ConfigError(`tool "${options.name}": parameters must be a z.object(...) schema.`);
  }
  if (typeof options.execute !== 'function') {
    throw new ConfigError(`tool "${options.name}": execute must be a function.`);
  }
  if (options.timeoutMs !== undefined && !isTimerMs(options.timeoutMs)) {
    throw new ConfigError(
      `tool "${options.name}": timeoutMs must be a positive number of milliseconds, at most ${MAX_TIMER_MS} (got ${options.timeoutMs}).`,
    );
  }
  if (
    options.needsApproval !== undefined &&
    typeof options.needsApproval !== 'boolean' &&
    typeof options.needsApproval !== 'function'
  ) {
    throw new ConfigError(`tool "${options.name}": needsApproval must be a boolean or a function.`);
  }
  if (options.needsApproval && options.journaled === false) {
    throw new ConfigError(
      `tool "${options.name}": a tool with needsApproval must be journaled (journaled: false would run it again, unasked, on every resume).`,
    );
  }
  return { ...options };
}

// zod schemas are immutable, and so are tools: each JSON Schema and each tool definition is
// computed on first use and shared (frozen, so that no consumer can change it for the others).
const jsonSchemas = new WeakMap<z.ZodType, JsonSchema>();
const definitions = new WeakMap<Tool, { parameters: z.ZodObject; definition: ToolDefinition }>();

/**
 * The JSON Schema of a zod schema, in the form providers accept for function parameters. It is
 * computed once per schema object and returned frozen; copy it to change it.
 */
export function toJsonSchema(schema: z.ZodType): JsonSchema {
  let cached = jsonSchemas.get(schema);
  if (cached === undefined) {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
      io: 'input',
      unrepresentable: 'any',
    }) as JsonSchema;
    // A copy, so that freezing it can never freeze an object the caller's schema holds.
    cached = deepFreeze(structuredClone(rest));
    jsonSchemas.set(schema, cached);
  }
  return cached;
}

/**
 * The definition the model sees for a tool. It is computed once per tool object (built again only
 * if its name, description or parameters were replaced) and returned frozen.
 */
export function toolDefinition(t: Tool): ToolDefinition {
  const cached = definitions.get(t);
  if (
    cached !== undefined &&
    cached.parameters === t.parameters &&
    cached.definition.name === t.name &&
    cached.definition.description === t.description
  ) {
    return cached.definition;
  }
  const definition = Object.freeze({
    name: t.name,
    description: t.description,
    parameters: toJsonSchema(t.parameters),
  });
  definitions.set(t, { parameters: t.parameters, definition });
  return definition;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** A readable one-paragraph summary of a zod validation failure, to send back to the model. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}
