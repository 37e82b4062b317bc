import type { z } from 'zod';
import type {
  ContentPart,
  Message,
  ModelLike,
  ModelResponse,
  ToolChoice,
  Usage,
} from '../contracts/model.js';
import { validateContentParts } from '../kernel/content-parts.js';
import { ConfigError, StructuredOutputError } from '../kernel/errors.js';
import { type GuardrailOptions, type Guardrails, validateGuardrails } from '../kernel/guardrail.js';
import { isTimerMs, MAX_TIMER_MS } from '../kernel/option-checks.js';
import type { RunContext, RunOptions, RunTally } from '../kernel/run-context.js';
import { addUsage, emptyUsage } from '../kernel/usage.js';
import { outputToolName, parseJsonAnswer, validateOutputType } from '../primitives/structured-output.js';
import type { Tool } from '../primitives/tool.js';
import type { ToolCallRecord } from '../primitives/tool-runner.js';
import { assistantTurn } from '../providers/reasoning.js';

export type { ToolCallRecord } from '../primitives/tool-runner.js';

/** Options of an Agent: plain configuration; the run loop lives in `run`. */
export interface AgentOptions<TOutput = string> extends GuardrailOptions {
  name: string;
  description?: string;
  /** The system prompt. */
  instructions?: string;
  model: ModelLike;
  tools?: Tool[];
  temperature?: number;
  maxTokens?: number;
  /** Model calls one run may make before `MaxTurnsExceededError` (default 10). */
  maxTurns?: number;
  /**
   * Time limit of one tool call in milliseconds (default: none); a tool's own `timeoutMs` wins.
   * A call past it is answered to the model as a tool error.
   */
  toolTimeoutMs?: number;
  /**
   * The run ends with a validated object of this `z.object(...)` as `result.finalOutput`, also
   * after tool calls: OpenAI's strict `json_schema` output where the model has it, else a forced
   * final tool. An invalid object goes back to the model to repair.
   */
  outputType?: z.ZodType<TOutput>;
  /** Invalid objects sent back for repair before the run fails with `StructuredOutputError` (default 2). */
  maxOutputRepairs?: number;
}

/** Per-run options of `agent.run`: the run's shared context, and tools added for this run only. */
export interface AgentRunOptions extends RunOptions {
  /** The run this agent call belongs to; without it a new run starts. */
  context?: RunContext;
  /** Extra tools for this run only (handoff tools, for example). */
  tools?: Tool[];
  /**
   * How the model may use tools. A forcing choice (`'required'` or `{ name }`) holds until the
   * model has called a tool, then falls back to `'auto'` so the loop can end with an answer.
   */
  toolChoice?: ToolChoice;
  /** Replaces the agent's instructions for this run. */
  instructions?: string;
  /**
   * This run ends with a validated object of this schema as `finalOutput`, in place of the agent's
   * own `outputType`: how a topology types the answer of the member that gives its final answer.
   */
  outputType?: z.ZodObject;
  /**
   * The `purpose` this run's model calls are tagged with (default `'agent'`), in traces and the
   * journal: how a topology tells its head's calls apart (`'director'`, `'judge'`...).
   */
  purpose?: string;
}

/** What `agent.run` returns. */
export interface AgentResult<TOutput = string> {
  /** The final text (with `outputType`, the object as JSON). */
  output: string;
  /** The validated object of the agent's `outputType`; without one, the final text. */
  finalOutput: TOutput;
  /** The new turns of this run (assistant turns, tool calls and results), not the input. */
  messages: Message[];
  /** Tokens of the whole run: the agent's own calls and every run its tools started (`asTool`). */
  usage: Usage;
  /** Model calls of the whole run, the runs its tools started included. */
  llmCalls: number;
  /** Of `usage`, the agent's own calls. */
  ownUsage: Usage;
  /** Of `llmCalls`, the agent's own calls (the turns of its tool loop). */
  ownLlmCalls: number;
  /** Of `llmCalls`, how many were answered from the run's journal (no provider call). */
  replayedCalls: number;
  /** Of `llmCalls`, how many went to the model. */
  liveCalls: number;
  toolCalls: ToolCallRecord[];
  /** The successful call of an `endsRun` tool that ended the run, if one did. */
  endedBy?: ToolCallRecord & { value: unknown };
}

/** An Agent's options once checked: what the constructor keeps beside the plain ones. */
export interface CheckedAgentOptions {
  maxTurns: number;
  outputType: z.ZodObject | undefined;
  guardrails: Guardrails | undefined;
  maxOutputRepairs: number;
}

/** Checks an Agent's options, throwing ConfigError naming the agent and the option. */
export function checkAgentOptions(options: AgentOptions<unknown>): CheckedAgentOptions {
  if (typeof options?.name !== 'string' || options.name.trim() === '') {
    throw new ConfigError('Agent: name must be a non-empty string.');
  }
  const owner = `Agent "${options.name}"`;
  const maxTurns = options.maxTurns ?? 10;
  if (!Number.isInteger(maxTurns) || maxTurns < 1) {
    throw new ConfigError(`${owner}: maxTurns must be an integer >= 1 (got ${maxTurns}).`);
  }
  if (options.temperature !== undefined && !(options.temperature >= 0 && options.temperature <= 2)) {
    throw new ConfigError(`${owner}: temperature must be between 0 and 2 (got ${options.temperature}).`);
  }
  if (options.maxTokens !== undefined && !(Number.isInteger(options.maxTokens) && options.maxTokens >= 1)) {
    throw new ConfigError(`${owner}: maxTokens must be an integer >= 1 (got ${options.maxTokens}).`);
  }
  for (const [name, ms] of [
    ['toolTimeoutMs', options.toolTimeoutMs],
    ...(options.tools ?? []).map((t) => [`tool "${t.name}" timeoutMs`, t.timeoutMs] as const),
  ] as const) {
    if (ms !== undefined && !isTimerMs(ms)) {
      throw new ConfigError(
        `${owner}: ${name} must be a positive number of milliseconds, at most ${MAX_TIMER_MS} (got ${ms}).`,
      );
    }
  }
  const twice = duplicateToolName(options.tools ?? []);
  if (twice !== undefined) throw new ConfigError(`${owner}: two tools are named "${twice}".`);
  const outputType = validateOutputType(options.outputType, owner);
  const guardrails = validateGuardrails(options, owner);
  const maxOutputRepairs = options.maxOutputRepairs ?? 2;
  if (!Number.isInteger(maxOutputRepairs) || maxOutputRepairs < 0) {
    throw new ConfigError(`${owner}: maxOutputRepairs must be an integer >= 0 (got ${maxOutputRepairs}).`);
  }
  return { maxTurns, outputType, guardrails, maxOutputRepairs };
}

/** The first name two of `tools` share, if any. */
export function duplicateToolName(tools: readonly Tool[]): string | undefined {
  const seen = new Set<string>();
  for (const t of tools) {
    if (seen.has(t.name)) return t.name;
    seen.add(t.name);
  }
  return undefined;
}

/** How a run is held to its output schema. */
export interface RunOutput {
  schema: z.ZodObject;
  /** The model's native JSON output (else the forced final tool). */
  native: boolean;
}

/**
 * What an answer without a tool call gives a run held to `output`: the validated object, or why it
 * was refused and the turn asking for a repair. Undefined without an output.
 */
export function typedAnswer(
  output: RunOutput | undefined,
  text: string,
): { value: unknown } | { problem: string; repair: string } | undefined {
  if (output === undefined) return undefined;
  if (!output.native) {
    return {
      problem: `no call of ${outputToolName}`,
      repair: `You must give your final answer by calling the function ${outputToolName}.`,
    };
  }
  const parsed = parseJsonAnswer(output.schema, text);
  if (parsed.problem === undefined) return { value: parsed.value };
  return {
    problem: parsed.problem,
    repair: `Your answer does not match the required JSON schema: ${parsed.problem}. Answer again with the corrected JSON only.`,
  };
}

/** Ends the run with StructuredOutputError once more objects were refused than may be repaired. */
export function checkRepairs(agent: string, maxOutputRepairs: number, problems: string[]): void {
  if (problems.length <= maxOutputRepairs) return;
  throw new StructuredOutputError(
    `Agent "${agent}" gave no valid ${outputToolName} object in ${problems.length} attempts: ${problems.join(' | ')}`,
    problems,
  );
}

/** The attachments a text input goes with: this call's own, else its run's (a topology's task). */
export function attachmentsOf(
  options: AgentRunOptions,
  context: RunContext,
): readonly ContentPart[] | undefined {
  if (options.attachments === undefined) return context.attachments;
  return context.attachments === options.attachments
    ? context.attachments
    : validateContentParts(options.attachments, 'attachments');
}

/** Fills a result's totals: the agent's own calls plus the runs its tools started. */
export function withTotals<R extends AgentResult<unknown>>(
  result: R,
  ownReplayed: number,
  nested: RunTally,
): R {
  result.llmCalls = result.ownLlmCalls + nested.llmCalls;
  result.usage = addUsage({ ...result.ownUsage }, nested.usage);
  result.replayedCalls = ownReplayed + nested.replayedCalls;
  result.liveCalls = result.llmCalls - result.replayedCalls;
  return result;
}

/** A guarded run's totals: every call counted through its tally, its guardrail agents' included. */
export function totalsOf<R extends AgentResult<unknown>>(result: R, tally: RunTally): R {
  result.llmCalls = tally.llmCalls;
  result.usage = { ...tally.usage };
  result.replayedCalls = tally.replayedCalls;
  result.liveCalls = tally.llmCalls - tally.replayedCalls;
  return result;
}

/** The whole result of a run whose first answer called no tool (most runs). */
export function answeredAtOnce<TOutput>(response: ModelResponse, replayed: number): AgentResult<TOutput> {
  return {
    output: response.text,
    finalOutput: response.text as TOutput,
    messages: [assistantTurn(response)],
    usage: addUsage(emptyUsage(), response.usage),
    llmCalls: 1,
    ownUsage: addUsage(emptyUsage(), response.usage),
    ownLlmCalls: 1,
    replayedCalls: replayed,
    liveCalls: 1 - replayed,
    toolCalls: [],
  };
}

/** A result the tool loop fills in as it goes. */
export function emptyResult<TOutput>(): AgentResult<TOutput> {
  return {
    output: '',
    finalOutput: '' as TOutput,
    messages: [],
    usage: emptyUsage(),
    llmCalls: 0,
    ownUsage: emptyUsage(),
    ownLlmCalls: 0,
    replayedCalls: 0,
    liveCalls: 0,
    toolCalls: [],
  };
}
