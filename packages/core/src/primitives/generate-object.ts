import type { z } from 'zod';
import type { Message, ModelLike, Usage } from '../contracts/model.js';
import { ConfigError, StructuredOutputError } from '../kernel/errors.js';
import { RunContext as Run, type RunContext, type RunOptions } from '../kernel/run-context.js';
import { addUsage, emptyUsage } from '../kernel/usage.js';
import { assistantTurn } from '../providers/reasoning.js';
import { resolveModel } from './resolve-model.js';
import { describeZodError, toJsonSchema } from './tool.js';

/** Options of `generateObject`: the schema, and either a prompt or messages. */
export interface GenerateObjectOptions<S extends z.ZodObject> extends RunOptions {
  schema: S;
  /** Function name the model must call (default `respond`). */
  name?: string;
  description?: string;
  system?: string;
  prompt?: string;
  messages?: Message[];
  /** Validation failures sent back for another try before giving up (default 2). */
  maxRepairs?: number;
  temperature?: number;
  maxTokens?: number;
  /** Agent name recorded on the request, for traces and scripted tests. */
  agent?: string;
  /** Purpose recorded on the request (default the function name). */
  purpose?: string;
  /** The run this call belongs to (budget, limiter, events, totals). */
  context?: RunContext;
}

/** A validated object and what it cost. */
export interface GenerateObjectResult<T> {
  object: T;
  usage: Usage;
  /** Model calls made, repair turns included. */
  llmCalls: number;
}

/**
 * Forces the model to call one function whose parameters are `schema`, validates the arguments with
 * zod, and on failure asks again with the validation error, up to `maxRepairs` times.
 */
export async function generateObject<S extends z.ZodObject>(
  modelLike: ModelLike,
  options: GenerateObjectOptions<S>,
): Promise<GenerateObjectResult<z.output<S>>> {
  const { schema, name = 'respond', maxRepairs = 2 } = options;
  if (!Number.isInteger(maxRepairs) || maxRepairs < 0) {
    throw new ConfigError(`generateObject: maxRepairs must be an integer >= 0 (got ${maxRepairs}).`);
  }
  if (!options.prompt && (options.messages === undefined || options.messages.length === 0)) {
    throw new ConfigError('generateObject: give a prompt or a non-empty messages array.');
  }
  const model = resolveModel(modelLike);
  const context = options.context ?? new Run(options);
  const messages: Message[] = [
    ...(options.messages ?? []),
    ...(options.prompt ? [user(options.prompt)] : []),
  ];
  const definition = {
    name,
    description: options.description ?? 'Give your answer by calling this function.',
    parameters: toJsonSchema(schema),
  };
  const usage = emptyUsage();
  const problems: string[] = [];
  let llmCalls = 0;

  for (let attempt = 0; attempt <= maxRepairs; attempt++) {
    llmCalls += 1;
    const response = await context.callModel(model, {
      system: options.system,
      messages,
      tools: [definition],
      toolChoice: { name },
      temperature: options.temperature,
      maxTokens: options.maxTokens,
      metadata: { agent: options.agent, purpose: options.purpose ?? name },
    });
    addUsage(usage, response.usage);
    const call = response.toolCalls.find((c) => c.name === name);
    if (!call) {
      problems.push(`no call of ${name}`);
      messages.push(assistantTurn(response));
      for (const other of response.toolCalls) {
        messages.push({ role: 'tool', toolCallId: other.id, content: `Unknown function; call ${name}.` });
      }
      messages.push(user(`You must answer by calling the function ${name}.`));
      continue;
    }
    const parsed = call.invalidArguments === undefined ? schema.safeParse(call.arguments) : undefined;
    if (parsed?.success) return { object: parsed.data, usage, llmCalls };
    const problem = parsed ? describeZodError(parsed.error) : 'the arguments were not valid JSON';
    problems.push(problem);
    messages.push({
      role: 'assistant',
      content: response.text,
      toolCalls: [call],
      ...(response.reasoning !== undefined && { reasoning: response.reasoning }),
    });
    messages.push({
      role: 'tool',
      toolCallId: call.id,
      content: `Invalid arguments: ${problem}. Call ${name} again with corrected arguments.`,
    });
  }
  throw new StructuredOutputError(
    `The model gave no valid ${name} call in ${maxRepairs + 1} attempts: ${problems.join(' | ')}`,
    problems,
  );
}

function user(content: string): Message {
  return { role: 'user', content };
}
