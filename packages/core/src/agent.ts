import type { z } from 'zod';
import { type AsToolOptions, asTool } from './as-tool.js';
import { ConfigError, errorMessage, MaxTurnsExceededError, SwarmError } from './errors.js';
import { type GenerateObjectResult, generateObject } from './generate-object.js';
import { isTimerMs, MAX_TIMER_MS } from './option-checks.js';
import { resolveModel } from './resolve-model.js';
import {
  callModelAlone,
  directCallDone,
  directCallError,
  modelCallError,
  needsRunContext,
  RunContext,
  type RunOptions,
  startDirectCall,
} from './run-context.js';
import { executeWithin } from './timed-tool.js';
import { describeZodError, type Tool, toolDefinition } from './tool.js';
import type {
  Message,
  Model,
  ModelLike,
  ModelRequest,
  ModelResponse,
  ToolCall,
  ToolChoice,
  ToolDefinition,
  Usage,
} from './types.js';
import { addUsage, emptyUsage } from './usage.js';

/** Options of an Agent: plain configuration; the run loop lives in `run`. */
export interface AgentOptions {
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
}

/** One executed tool call, with what it returned. */
export interface ToolCallRecord {
  call: ToolCall;
  /** The text sent back to the model. */
  result: string;
  /** True when the tool threw or its arguments failed validation. */
  isError: boolean;
  /** True when the call was answered as not executed (it came after a run-ending call). */
  skipped?: boolean;
}

/** What `agent.run` returns. */
export interface AgentResult {
  /** The final text. */
  output: string;
  /** The new turns of this run (assistant turns, tool calls and results), not the input. */
  messages: Message[];
  usage: Usage;
  llmCalls: number;
  toolCalls: ToolCallRecord[];
  /** The successful call of an `endsRun` tool that ended the run, if one did. */
  endedBy?: ToolCallRecord & { value: unknown };
}

/**
 * An LLM with instructions and tools. Agents are stateless: each run sees only the input it is
 * given, and topologies pass the context they mean to pass as typed turns.
 */
export class Agent {
  readonly name: string;
  readonly description: string | undefined;
  readonly instructions: string | undefined;
  readonly model: Model;
  readonly tools: readonly Tool[];
  readonly temperature: number | undefined;
  readonly maxTokens: number | undefined;
  readonly maxTurns: number;
  readonly toolTimeoutMs: number | undefined;
  // The agent's own tools by name, built once: a run given no extra tools reads it, never writes it.
  readonly #toolsByName: ReadonlyMap<string, Tool>;
  // What every run given no extra tools sends: the definitions (checked against the tools each run,
  // see #definitionsOf) and the request metadata.
  #definitions: readonly ToolDefinition[] = [];
  readonly #metadata: Readonly<{ agent: string; purpose: string }>;

  constructor(options: AgentOptions) {
    if (typeof options?.name !== 'string' || options.name.trim() === '') {
      throw new ConfigError('Agent: name must be a non-empty string.');
    }
    const maxTurns = options.maxTurns ?? 10;
    if (!Number.isInteger(maxTurns) || maxTurns < 1) {
      throw new ConfigError(`Agent "${options.name}": maxTurns must be an integer >= 1 (got ${maxTurns}).`);
    }
    if (options.temperature !== undefined && !(options.temperature >= 0 && options.temperature <= 2)) {
      throw new ConfigError(
        `Agent "${options.name}": temperature must be between 0 and 2 (got ${options.temperature}).`,
      );
    }
    if (options.maxTokens !== undefined && !(Number.isInteger(options.maxTokens) && options.maxTokens >= 1)) {
      throw new ConfigError(
        `Agent "${options.name}": maxTokens must be an integer >= 1 (got ${options.maxTokens}).`,
      );
    }
    for (const [name, ms] of [
      ['toolTimeoutMs', options.toolTimeoutMs],
      ...(options.tools ?? []).map((t) => [`tool "${t.name}" timeoutMs`, t.timeoutMs] as const),
    ] as const) {
      if (ms !== undefined && !isTimerMs(ms)) {
        throw new ConfigError(
          `Agent "${options.name}": ${name} must be a positive number of milliseconds, at most ${MAX_TIMER_MS} (got ${ms}).`,
        );
      }
    }
    const twice = duplicateToolName(options.tools ?? []);
    if (twice !== undefined)
      throw new ConfigError(`Agent "${options.name}": two tools are named "${twice}".`);
    this.name = options.name;
    this.description = options.description;
    this.instructions = options.instructions;
    this.model = resolveModel(options.model);
    this.tools = [...(options.tools ?? [])];
    this.temperature = options.temperature;
    this.maxTokens = options.maxTokens;
    this.maxTurns = maxTurns;
    this.toolTimeoutMs = options.toolTimeoutMs;
    this.#toolsByName = new Map(this.tools.map((t) => [t.name, t]));
    this.#metadata = Object.freeze({ agent: this.name, purpose: 'agent' });
  }

  // The definitions of a run's tools. For the agent's own tools, the same array run after run,
  // unless a tool changed since (toolDefinition notices): then a new one, kept for the next runs.
  #definitionsOf(byName: ReadonlyMap<string, Tool>): ToolDefinition[] {
    if (byName !== this.#toolsByName) return Array.from(byName.values(), toolDefinition);
    const cached = this.#definitions;
    let index = 0;
    let same = cached.length === byName.size;
    for (const t of byName.values()) {
      if (!same) break;
      same = toolDefinition(t) === cached[index++];
    }
    if (!same) this.#definitions = Object.freeze(Array.from(byName.values(), toolDefinition));
    return this.#definitions as ToolDefinition[];
  }

  /**
   * Runs the tool loop: call the model; run the tools it asked for (concurrently); repeat until it
   * answers without a tool call. Throws `MaxTurnsExceededError` after `maxTurns` calls.
   */
  run(input: string | Message[], options: AgentRunOptions = noRunOptions): Promise<AgentResult> {
    // Not async, and the first model call is made here: a run waiting for its first answer (most
    // runs end with it) holds no suspended frame; the loop starts only when a tool is called.
    let context: RunContext | undefined;
    let history: Message[];
    let byName: ReadonlyMap<string, Tool>;
    try {
      // A run that nothing could observe the context of (no listener, parent, budget, limiter or
      // text deltas) gets one only when it calls a tool: most runs answer at once.
      context =
        options.context ??
        (needsRunContext(options) ? new RunContext({ ...options, name: this.name }) : undefined);
      history = typeof input === 'string' ? [{ role: 'user', content: input }] : [...input];
      const extra = options.tools ?? [];
      const tools = extra.length === 0 ? this.tools : [...this.tools, ...extra];
      const twice = extra.length === 0 ? undefined : duplicateToolName(tools);
      if (twice !== undefined) {
        throw new ConfigError(`Agent "${this.name}": two tools are named "${twice}" in this run.`);
      }
      byName = extra.length === 0 ? this.#toolsByName : new Map(tools.map((t) => [t.name, t]));
      context?.emit({ type: 'agent.start', agent: this.name });
    } catch (error) {
      return Promise.reject(error);
    }
    const run = context;
    let definitions: ToolDefinition[];
    let request: ModelRequest;
    let direct: Promise<ModelResponse> | undefined;
    try {
      definitions = this.#definitionsOf(byName);
      request = this.#request(history, definitions, options, options.toolChoice);
      direct =
        run === undefined
          ? callModelAlone(this.model, request, options.signal)
          : startDirectCall(run, this.model, request);
    } catch (error) {
      return Promise.reject(this.#failure(run, error));
    }
    if (direct === undefined) {
      return run!.callModel(this.model, request).then(
        (response) => this.#next(history, byName, definitions, options, run, response),
        (error: unknown) => {
          throw this.#failure(run, error);
        },
      );
    }
    // Nobody listens and no limiter: the model's own promise, counted here if there is a context
    // to count in (see startDirectCall and callModelAlone).
    return direct.then(
      (response) =>
        this.#next(
          history,
          byName,
          definitions,
          options,
          run,
          run === undefined ? response : directCallDone(run, response),
        ),
      (error: unknown) => {
        throw this.#failure(
          run,
          run === undefined
            ? modelCallError(error, options.signal, this.model)
            : directCallError(run, this.model, request, error),
        );
      },
    );
  }

  // After the first answer: the whole run when it calls no tool, else the tool loop (in a context
  // made now if the run had none, with the first call counted in it).
  #next(
    history: Message[],
    byName: ReadonlyMap<string, Tool>,
    definitions: ToolDefinition[],
    options: AgentRunOptions,
    context: RunContext | undefined,
    response: ModelResponse,
  ): AgentResult | Promise<AgentResult> {
    if (response.toolCalls.length === 0) return this.#answered(context, response);
    let run = context;
    if (run === undefined) {
      run = new RunContext({ ...options, name: this.name });
      run.llmCalls = 1;
      addUsage(run.usage, response.usage);
    }
    return this.#loop(history, byName, definitions, options, run, response);
  }

  // One model request of a run.
  #request(
    messages: Message[],
    definitions: ToolDefinition[],
    options: AgentRunOptions,
    toolChoice: ToolChoice | undefined,
  ): ModelRequest {
    return {
      system: options.instructions ?? this.instructions,
      messages,
      tools: definitions.length > 0 ? definitions : undefined,
      toolChoice: definitions.length > 0 ? toolChoice : undefined,
      temperature: this.temperature,
      maxTokens: this.maxTokens,
      metadata: this.#metadata,
    };
  }

  // Closes the agent's trace with `agent.error`; returns the error to throw.
  #failure(context: RunContext | undefined, error: unknown): unknown {
    context?.emitError('agent.error', error, this.name);
    return error;
  }

  // A first answer without a tool call: the whole run.
  #answered(context: RunContext | undefined, response: ModelResponse): AgentResult {
    try {
      const result: AgentResult = {
        output: response.text,
        messages: [{ role: 'assistant', content: response.text }],
        usage: addUsage(emptyUsage(), response.usage),
        llmCalls: 1,
        toolCalls: [],
      };
      context?.emit({ type: 'agent.end', agent: this.name, output: response.text });
      return result;
    } catch (error) {
      throw this.#failure(context, error);
    }
  }

  // The tool loop from the first answer that calls a tool: run the tools it asked for, call the
  // model again, until it answers. A failure closes the agent's trace with `agent.error`.
  async #loop(
    history: Message[],
    byName: ReadonlyMap<string, Tool>,
    definitions: ToolDefinition[],
    options: AgentRunOptions,
    context: RunContext,
    first: ModelResponse,
  ): Promise<AgentResult> {
    try {
      let toolChoice = options.toolChoice;
      const result: AgentResult = {
        output: '',
        messages: [],
        usage: emptyUsage(),
        llmCalls: 0,
        toolCalls: [],
      };
      let response = first;
      for (let turn = 1; ; turn++) {
        result.llmCalls = turn;
        addUsage(result.usage, response.usage);
        result.output = response.text;
        if (response.toolCalls.length === 0) {
          result.messages.push({ role: 'assistant', content: response.text });
          context.emit({ type: 'agent.end', agent: this.name, output: response.text });
          return result;
        }
        result.messages.push({ role: 'assistant', content: response.text, toolCalls: response.toolCalls });
        if (toolChoice === 'required' || typeof toolChoice === 'object') toolChoice = 'auto';
        const records = await this.#runTools(response.toolCalls, byName, context);
        for (const record of records) {
          result.toolCalls.push(record);
          result.messages.push({ role: 'tool', toolCallId: record.call.id, content: record.result });
          if ('value' in record) result.endedBy = record as AgentResult['endedBy'];
        }
        if (result.endedBy) {
          context.emit({
            type: 'agent.end',
            agent: this.name,
            output: result.output,
            endedBy: result.endedBy.call.name,
          });
          return result;
        }
        if (turn >= this.maxTurns) throw new MaxTurnsExceededError(this.name, this.maxTurns);
        const request = this.#request([...history, ...result.messages], definitions, options, toolChoice);
        const direct = startDirectCall(context, this.model, request);
        if (direct === undefined) response = await context.callModel(this.model, request);
        else {
          let answer: ModelResponse;
          try {
            answer = await direct;
          } catch (error) {
            throw directCallError(context, this.model, request, error);
          }
          response = directCallDone(context, answer);
        }
      }
    } catch (error) {
      throw this.#failure(context, error);
    }
  }

  /** Asks this agent's model for one object matching `schema` (a forced, validated function call). */
  async generateObject<S extends z.ZodObject>(
    schema: S,
    input: string | Message[],
    options: AgentRunOptions & { name?: string; description?: string; maxRepairs?: number } = {},
  ): Promise<GenerateObjectResult<z.output<S>>> {
    return generateObject(this.model, {
      ...options,
      schema,
      system: options.instructions ?? this.instructions,
      ...(typeof input === 'string' ? { prompt: input } : { messages: input }),
      temperature: this.temperature,
      maxTokens: this.maxTokens,
      agent: this.name,
      context: options.context ?? new RunContext({ ...options, name: this.name }),
    });
  }

  /** This agent as a tool another agent can call; each call is a run nested in the caller's. */
  asTool(options: AsToolOptions = {}): Tool {
    return asTool(this, options);
  }

  // Runs one response's tool calls concurrently. A successful call of an `endsRun` tool ends the
  // turn: calls after it are not started and are answered as not executed.
  async #runTools(
    calls: ToolCall[],
    byName: ReadonlyMap<string, Tool>,
    context: RunContext,
  ): Promise<(ToolCallRecord & { value?: unknown })[]> {
    // One call (the usual case): nothing to run beside it, nothing after it to skip.
    if (calls.length === 1) return [await this.#runTool(calls[0]!, byName.get(calls[0]!.name), context)];
    const firstEnding = calls.findIndex((c) => byName.get(c.name)?.endsRun);
    const runnable = firstEnding === -1 ? calls : calls.slice(0, firstEnding + 1);
    const executed = await Promise.all(
      runnable.map((call) => this.#runTool(call, byName.get(call.name), context)),
    );
    if (runnable.length === calls.length) return executed;
    const ending = executed.at(-1);
    const reason =
      ending && !ending.isError
        ? `${ending.call.name} ended this turn first.`
        : `${ending?.call.name} came first in this response and failed; call again if it is still needed.`;
    const skipped = calls.slice(runnable.length).map((call): ToolCallRecord => {
      const result = `Not executed: ${reason}`;
      context.emit({
        type: 'tool.result',
        agent: this.name,
        tool: call.name,
        toolCallId: call.id,
        result,
        isError: true,
        skipped: true,
      });
      return { call, result, isError: true, skipped: true };
    });
    return [...executed, ...skipped];
  }

  async #runTool(
    call: ToolCall,
    t: Tool | undefined,
    context: RunContext,
  ): Promise<ToolCallRecord & { value?: unknown }> {
    context.emit({
      type: 'tool.call',
      agent: this.name,
      tool: call.name,
      toolCallId: call.id,
      arguments: call.arguments,
    });
    if (!t) {
      return this.#finish(context, {
        call,
        result: `Error: there is no tool named "${call.name}".`,
        isError: true,
      });
    }
    if (call.invalidArguments !== undefined) {
      return this.#finish(context, {
        call,
        result: 'Invalid arguments: they were not valid JSON. Try again.',
        isError: true,
      });
    }
    const parsed = t.parameters.safeParse(call.arguments);
    if (!parsed.success) {
      return this.#finish(context, {
        call,
        result: `Invalid arguments: ${describeZodError(parsed.error)}. Try again.`,
        isError: true,
      });
    }
    try {
      const value = await executeWithin(
        t.name,
        (signal) => t.execute(parsed.data, { agent: this.name, toolCallId: call.id, signal, run: context }),
        context.signal,
        t.timeoutMs ?? this.toolTimeoutMs,
      );
      const result = stringify(value);
      return this.#finish(
        context,
        t.endsRun ? { call, result, isError: false, value } : { call, result, isError: false },
      );
    } catch (error) {
      if (SwarmError.isInstance(error) && (error.code === 'ABORTED' || error.code === 'BUDGET_EXCEEDED'))
        throw error;
      return this.#finish(context, { call, result: `Error: ${errorMessage(error)}`, isError: true });
    }
  }

  // Emits a tool call's `tool.result` and returns its record.
  #finish<R extends ToolCallRecord>(context: RunContext, record: R): R {
    context.emit({
      type: 'tool.result',
      agent: this.name,
      tool: record.call.name,
      toolCallId: record.call.id,
      result: record.result,
      isError: record.isError,
    });
    return record;
  }
}

const noRunOptions: AgentRunOptions = Object.freeze({});

function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value);
}

function duplicateToolName(tools: readonly Tool[]): string | undefined {
  const seen = new Set<string>();
  for (const t of tools) {
    if (seen.has(t.name)) return t.name;
    seen.add(t.name);
  }
  return undefined;
}
