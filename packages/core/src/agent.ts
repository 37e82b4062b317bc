import type { z } from 'zod';
import { type AsToolOptions, asTool } from './as-tool.js';
import { taskMessage, validateContentParts, withAttachments } from './content-parts.js';
import type { PendingApproval } from './contracts/approval.js';
import {
  ConfigError,
  errorMessage,
  isAbort,
  isPause,
  MaxTurnsExceededError,
  RunPausedError,
  StructuredOutputError,
  throwIfAborted,
} from './errors.js';
import { type GenerateObjectResult, generateObject } from './generate-object.js';
import {
  type GuardrailOptions,
  type Guardrails,
  guardedRun,
  joinGuardrails,
  validateGuardrails,
} from './guardrail.js';
import type { ToolCallEntry } from './journal.js';
import { turnsAsText } from './member.js';
import { isTimerMs, MAX_TIMER_MS } from './option-checks.js';
import { resolveModel } from './resolve-model.js';
import {
  callModelAlone,
  directCallDone,
  directCallError,
  journalOf,
  modelCallError,
  needsRunContext,
  pathKeyOf,
  pendingGateOf,
  RunContext,
  type RunOptions,
  type RunTally,
  rootOf,
  startDirectCall,
  withTally,
} from './run-context.js';
import { approvalId, argumentsHash, type RunJournal } from './run-journal.js';
import { isRunStop } from './run-stop.js';
import {
  outputTool,
  outputToolName,
  parseJsonAnswer,
  responseFormatOf,
  validateOutputType,
} from './structured-output.js';
import { executeWithin } from './timed-tool.js';
import { describeZodError, type Tool, type ToolContext, toolDefinition } from './tool.js';
import { finishedPause } from './topology-run.js';
import type {
  ContentPart,
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

/**
 * An LLM with instructions and tools. Agents are stateless: each run sees only the input it is
 * given, and topologies pass the context they mean to pass as typed turns.
 */
export class Agent<TOutput = string> {
  readonly name: string;
  readonly description: string | undefined;
  readonly instructions: string | undefined;
  readonly model: Model;
  readonly tools: readonly Tool[];
  readonly temperature: number | undefined;
  readonly maxTokens: number | undefined;
  readonly maxTurns: number;
  readonly toolTimeoutMs: number | undefined;
  /** The schema of the run's final object, if the agent has one. */
  readonly outputType: z.ZodObject | undefined;
  readonly maxOutputRepairs: number;
  // How this agent's model is held to `outputType`: its native JSON output, or the forced final tool.
  readonly #output: RunOutput | undefined;
  readonly #guardrails: Guardrails | undefined;
  // The agent's own tools by name, built once: a run given no extra tools reads it, never writes it.
  readonly #toolsByName: ReadonlyMap<string, Tool>;
  // What every run given no extra tools sends: the definitions (checked against the tools each run,
  // see #definitionsOf) and the request metadata.
  #definitions: readonly ToolDefinition[] = [];
  readonly #metadata: Readonly<{ agent: string; purpose: string }>;
  readonly #options: AgentOptions<TOutput>;

  constructor(options: AgentOptions<TOutput>) {
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
    const outputType = validateOutputType(options.outputType, `Agent "${options.name}"`);
    const guardrails = validateGuardrails(options, `Agent "${options.name}"`);
    const maxOutputRepairs = options.maxOutputRepairs ?? 2;
    if (!Number.isInteger(maxOutputRepairs) || maxOutputRepairs < 0) {
      throw new ConfigError(
        `Agent "${options.name}": maxOutputRepairs must be an integer >= 0 (got ${maxOutputRepairs}).`,
      );
    }
    this.name = options.name;
    this.description = options.description;
    this.instructions = options.instructions;
    this.model = resolveModel(options.model);
    this.tools = [...(options.tools ?? [])];
    this.temperature = options.temperature;
    this.maxTokens = options.maxTokens;
    this.maxTurns = maxTurns;
    this.toolTimeoutMs = options.toolTimeoutMs;
    this.outputType = outputType;
    this.maxOutputRepairs = maxOutputRepairs;
    this.#guardrails = guardrails;
    const own = [...this.tools];
    this.#output = outputType && this.#outputFor(outputType);
    if (this.#output?.native === false) own.push(outputTool(this.#output.schema));
    this.#toolsByName = new Map(own.map((t) => [t.name, t]));
    this.#metadata = Object.freeze({ agent: this.name, purpose: 'agent' });
    this.#options = { ...options, tools: [...this.tools] };
  }

  /**
   * A new agent with these options changed and every other one kept (outputType, guardrails,
   * repairs and all): how a topology adapts a caller's agent without changing it or dropping an
   * option it did not know about. The copy is validated as any new agent is.
   */
  clone(overrides: Partial<AgentOptions<TOutput>> = {}): Agent<TOutput> {
    return new Agent<TOutput>({ ...this.#options, ...overrides });
  }

  // How a run is held to `schema`: the model's native JSON output, or the forced final tool.
  #outputFor(schema: z.ZodObject): RunOutput {
    if (this.model.structuredOutput === 'json-schema') return { schema, native: true };
    if (this.tools.some((t) => t.name === outputToolName)) {
      throw new ConfigError(
        `Agent "${this.name}": a tool is named "${outputToolName}", the name of the outputType's final tool.`,
      );
    }
    return { schema, native: false };
  }

  // The output a run is held to: the run's `outputType` (a topology's), else the agent's own.
  #outputOf(options: AgentRunOptions): RunOutput | undefined {
    const schema = options.outputType;
    if (schema === undefined || schema === this.outputType) return this.#output;
    return this.#outputFor(schema);
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
   * answers without a tool call. Throws `MaxTurnsExceededError` after `maxTurns` calls, and
   * `RunPausedError` when a call needs a person's approval (`needsApproval`) that it was not given.
   */
  run(input: string | Message[], options: AgentRunOptions = noRunOptions): Promise<AgentResult<TOutput>> {
    if (
      this.#guardrails !== undefined ||
      options.inputGuardrails !== undefined ||
      options.outputGuardrails !== undefined
    ) {
      return this.#guarded(input, options);
    }
    return this.#run(input, options);
  }

  // A run under input and output guardrails (the agent's and this run's): in a context of its own
  // (or a view of the shared one) whose calls a tripped guardrail cancels.
  async #guarded(input: string | Message[], options: AgentRunOptions): Promise<AgentResult<TOutput>> {
    const guardrails = joinGuardrails(
      this.#guardrails,
      validateGuardrails(options, `Agent "${this.name}" run`),
    );
    const { inputGuardrails: _input, outputGuardrails: _output, ...rest } = options;
    if (guardrails === undefined) return this.#run(input, rest);
    const trip = new AbortController();
    const owned = options.context === undefined;
    const context = owned
      ? await RunContext.open({
          ...rest,
          name: this.name,
          signal: options.signal ? AbortSignal.any([options.signal, trip.signal]) : trip.signal,
        })
      : options.context!.withSignal(trip.signal);
    const text = typeof input === 'string' ? input : turnsAsText(input);
    try {
      const result = await guardedRun(
        context,
        trip,
        guardrails,
        text,
        () => this.#run(input, { ...rest, context }),
        (r) => r.output,
      );
      if (owned) context.finishJournal();
      return result;
    } catch (error) {
      throw owned && isPause(error) ? finishedPause(context, error) : error;
    }
  }

  #run(input: string | Message[], options: AgentRunOptions): Promise<AgentResult<TOutput>> {
    // Not async, and the first model call is made here: a run waiting for its first answer (most
    // runs end with it) holds no suspended frame; the loop starts only when a tool is called.
    let context: RunContext | undefined;
    let history: Message[];
    let byName: ReadonlyMap<string, Tool>;
    try {
      // A run that nothing could observe the context of (no listener, parent, budget, limiter,
      // text deltas or journal) gets one only when it calls a tool: most runs answer at once.
      context =
        options.context ??
        (needsRunContext(options) ? new RunContext({ ...options, name: this.name }) : undefined);
      const attachments = attachmentsOf(options, context);
      history =
        typeof input === 'string' ? [taskMessage(input, attachments)] : withAttachments(input, attachments);
      let extra = options.tools ?? [];
      let own: Iterable<Tool> = this.#toolsByName.values();
      if (options.outputType !== undefined && options.outputType !== this.outputType) {
        // This run's outputType (a topology's) in place of the agent's own.
        const output = this.#outputFor(validateOutputType(options.outputType, `Agent "${this.name}" run`)!);
        own = this.tools;
        if (!output.native) extra = [...extra, outputTool(output.schema)];
      }
      const tools = extra.length === 0 ? this.tools : [...own, ...extra];
      const twice = extra.length === 0 ? undefined : duplicateToolName(tools);
      if (twice !== undefined) {
        throw new ConfigError(`Agent "${this.name}": two tools are named "${twice}" in this run.`);
      }
      byName =
        extra.length === 0 && own !== this.tools ? this.#toolsByName : new Map(tools.map((t) => [t.name, t]));
      // The outermost run of a journal: read and checked before anything starts or is written.
      if (context !== undefined && this.#ownsJournal(context, options)) {
        return this.#runJournaled(history, byName, options, context);
      }
      context?.emit({ type: 'agent.start', agent: this.name });
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#begin(history, byName, options, context);
  }

  // Whether this run is the outermost run of its context's journal (it made the context, and the
  // context has a journal and no parent): then it reads the journal first and ends it last.
  #ownsJournal(context: RunContext, options: AgentRunOptions): boolean {
    return options.context === undefined && context.parent === undefined && journalOf(context) !== undefined;
  }

  async #runJournaled(
    history: Message[],
    byName: ReadonlyMap<string, Tool>,
    options: AgentRunOptions,
    context: RunContext,
  ): Promise<AgentResult<TOutput>> {
    await journalOf(context)!.open();
    context.emit({ type: 'agent.start', agent: this.name });
    return this.#begin(history, byName, options, context);
  }

  // The first model call of a run, then the rest of it.
  #begin(
    history: Message[],
    byName: ReadonlyMap<string, Tool>,
    options: AgentRunOptions,
    run: RunContext | undefined,
  ): Promise<AgentResult<TOutput>> {
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
      return Promise.reject(this.#failure(run, error, options));
    }
    if (direct === undefined) {
      return run!.callModel(this.model, request).then(
        (response) => this.#next(history, byName, definitions, options, run, response),
        (error: unknown) => {
          throw this.#failure(run, error, options);
        },
      );
    }
    // Nobody listens, no limiter and no journal: the model's own promise, counted here if there is
    // a context to count in (see startDirectCall and callModelAlone).
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
          options,
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
  ): AgentResult<TOutput> | Promise<AgentResult<TOutput>> {
    if (response.toolCalls.length === 0 && this.#outputOf(options) === undefined) {
      return this.#answered(context, response, options);
    }
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
    const output = this.#outputOf(options);
    // The final tool of `outputType` is forced on every turn: the run can only end through it.
    const forced: ToolChoice = definitions.length === 1 ? { name: outputToolName } : 'required';
    const choice = output?.native === false ? forced : toolChoice;
    const request: ModelRequest = {
      system: options.instructions ?? this.instructions,
      messages,
      tools: definitions.length > 0 ? definitions : undefined,
      toolChoice: definitions.length > 0 ? choice : undefined,
      temperature: this.temperature,
      maxTokens: this.maxTokens,
      metadata: this.#metadata,
    };
    if (output?.native) request.responseFormat = responseFormatOf(output.schema);
    return request;
  }

  // What an answer without a tool call gives an agent with `outputType`: the validated object, or
  // why it was refused and the turn asking for a repair. Undefined without `outputType`.
  #typedAnswer(
    text: string,
    options: AgentRunOptions,
  ): { value: unknown } | { problem: string; repair: string } | undefined {
    const output = this.#outputOf(options);
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

  // Ends the run with StructuredOutputError once more objects were refused than may be repaired.
  #checkRepairs(problems: string[]): void {
    if (problems.length <= this.maxOutputRepairs) return;
    throw new StructuredOutputError(
      `Agent "${this.name}" gave no valid ${outputToolName} object in ${problems.length} attempts: ${problems.join(' | ')}`,
      problems,
    );
  }

  // Closes the agent's trace with `agent.error` (`agent.paused` for a pause, once the outermost
  // run of a journal has ended it); returns the error to throw.
  #failure(context: RunContext | undefined, error: unknown, options: AgentRunOptions): unknown {
    const thrown =
      context !== undefined && isPause(error) && this.#ownsJournal(context, options)
        ? finishedPause(context, error)
        : error;
    // The run ends here: its lease goes back (a pause gave it back as the journal finished).
    if (context !== undefined && this.#ownsJournal(context, options)) journalOf(context)?.release();
    context?.emitError('agent.error', thrown, this.name);
    return thrown;
  }

  // Emits `agent.end`, after ending the journal when this is its outermost run.
  #ended(context: RunContext, options: AgentRunOptions, output: string): void {
    if (this.#ownsJournal(context, options)) context.finishJournal();
    context.emit({ type: 'agent.end', agent: this.name, output });
  }

  // A first answer without a tool call: the whole run.
  #answered(
    context: RunContext | undefined,
    response: ModelResponse,
    options: AgentRunOptions,
  ): AgentResult<TOutput> {
    try {
      const replayed = context !== undefined && journalOf(context)?.wasReplayed(response) ? 1 : 0;
      const result: AgentResult<TOutput> = {
        output: response.text,
        finalOutput: response.text as TOutput,
        messages: [{ role: 'assistant', content: response.text }],
        usage: addUsage(emptyUsage(), response.usage),
        llmCalls: 1,
        ownUsage: addUsage(emptyUsage(), response.usage),
        ownLlmCalls: 1,
        replayedCalls: replayed,
        liveCalls: 1 - replayed,
        toolCalls: [],
      };
      if (context !== undefined) this.#ended(context, options, response.text);
      return result;
    } catch (error) {
      throw this.#failure(context, error, options);
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
  ): Promise<AgentResult<TOutput>> {
    try {
      const journal = journalOf(context);
      let toolChoice = options.toolChoice;
      const result: AgentResult<TOutput> = {
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
      // The tools run in a view of the run that tallies the runs they start (asTool), so the
      // result's totals include them whether this run has a context of its own or shares one.
      const { context: toolContext, tally } = withTally(context);
      let ownReplayed = 0;
      let response = first;
      // Why each object given so far was refused (with `outputType`), for the repair and the error.
      const problems: string[] = [];
      for (let turn = 1; ; turn++) {
        result.ownLlmCalls = turn;
        if (journal?.wasReplayed(response)) ownReplayed += 1;
        addUsage(result.ownUsage, response.usage);
        result.output = response.text;
        if (response.toolCalls.length === 0) {
          result.messages.push({ role: 'assistant', content: response.text });
          const typed = this.#typedAnswer(response.text, options);
          if (typed === undefined || 'value' in typed) {
            if (typed !== undefined) result.finalOutput = typed.value as TOutput;
            else result.finalOutput = response.text as TOutput;
            withTotals(result, ownReplayed, tally);
            this.#ended(context, options, result.output);
            return result;
          }
          problems.push(typed.problem);
          this.#checkRepairs(problems);
          result.messages.push({ role: 'user', content: typed.repair });
        } else {
          result.messages.push({ role: 'assistant', content: response.text, toolCalls: response.toolCalls });
          if (toolChoice === 'required' || typeof toolChoice === 'object') toolChoice = 'auto';
          const records = await this.#runTools(response, byName, toolContext);
          let typedEnd: (ToolCallRecord & { value?: unknown }) | undefined;
          for (const record of records) {
            result.toolCalls.push(record);
            result.messages.push({ role: 'tool', toolCallId: record.call.id, content: record.result });
            if (record.call.name === outputToolName && this.#outputOf(options)?.native === false) {
              if ('value' in record) typedEnd = record;
              else if (record.isError && !record.skipped) problems.push(record.result);
            } else if ('value' in record) result.endedBy = record as AgentResult['endedBy'];
          }
          if (typedEnd !== undefined) {
            result.finalOutput = typedEnd.value as TOutput;
            result.output = typedEnd.result;
            withTotals(result, ownReplayed, tally);
            this.#ended(context, options, result.output);
            return result;
          }
          if (result.endedBy) {
            withTotals(result, ownReplayed, tally);
            if (this.#ownsJournal(context, options)) context.finishJournal();
            context.emit({
              type: 'agent.end',
              agent: this.name,
              output: result.output,
              endedBy: result.endedBy.call.name,
            });
            return result;
          }
          this.#checkRepairs(problems);
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
      throw this.#failure(context, error, options);
    }
  }

  /** Asks this agent's model for one object matching `schema` (a forced, validated function call). */
  async generateObject<S extends z.ZodObject>(
    schema: S,
    input: string | Message[],
    options: AgentRunOptions & { name?: string; description?: string; maxRepairs?: number } = {},
  ): Promise<GenerateObjectResult<z.output<S>>> {
    const context = options.context ?? new RunContext({ ...options, name: this.name });
    // The run's attachments go with the first turn, as in `run`.
    const attachments = attachmentsOf(options, context);
    const turns =
      attachments === undefined
        ? typeof input === 'string'
          ? { prompt: input }
          : { messages: input }
        : {
            messages:
              typeof input === 'string'
                ? [taskMessage(input, attachments)]
                : withAttachments(input, attachments),
          };
    return generateObject(this.model, {
      ...options,
      schema,
      system: options.instructions ?? this.instructions,
      ...turns,
      temperature: this.temperature,
      maxTokens: this.maxTokens,
      agent: this.name,
      context,
    });
  }

  /** This agent as a tool another agent can call; each call is a run nested in the caller's. */
  asTool(options: AsToolOptions = {}): Tool {
    return asTool(this, options);
  }

  // Runs one response's tool calls concurrently. A successful call of an `endsRun` tool ends the
  // turn: calls after it are not started and are answered as not executed. Calls that wait for
  // approval, and pauses from runs nested in a call, end the turn with one RunPausedError once
  // every other call of the turn has finished.
  async #runTools(
    response: ModelResponse,
    byName: ReadonlyMap<string, Tool>,
    context: RunContext,
  ): Promise<(ToolCallRecord & { value?: unknown })[]> {
    const calls = response.toolCalls;
    // Input guardrails still running hold the tools too: no side effect of an unchecked input.
    const gate = pendingGateOf(context);
    if (gate !== undefined) {
      await gate;
      throwIfAborted(context.signal);
    }
    // One call (the usual case): nothing to run beside it, nothing after it to skip.
    if (calls.length === 1) {
      const outcome = await this.#runTool(calls[0]!, byName.get(calls[0]!.name), context, response, 0);
      if ('pending' in outcome) throw new RunPausedError([outcome.pending]);
      return [outcome];
    }
    const firstEnding = calls.findIndex((c) => byName.get(c.name)?.endsRun);
    const runnable = firstEnding === -1 ? calls : calls.slice(0, firstEnding + 1);
    const executed = settledRecords(
      await Promise.allSettled(
        runnable.map((call, index) => this.#runTool(call, byName.get(call.name), context, response, index)),
      ),
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

  // One tool call: answered from the journal when it holds the execution; else validated, put to
  // a person first when the tool needs approval, executed, and journaled before its answer is used.
  async #runTool(
    call: ToolCall,
    t: Tool | undefined,
    context: RunContext,
    response: ModelResponse,
    index: number,
  ): Promise<ToolOutcome> {
    const journal = journalOf(context);
    const slot = t?.journaled === false ? undefined : journal?.toolSlot(response, index);
    if (slot?.entry) return this.#replayedTool(call, slot.entry, context);
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
    let approved: boolean | undefined;
    if (t.needsApproval) {
      const asked = await this.#approval(t, parsed.data, call, context, journal, slot?.key);
      if (asked !== true)
        return asked.record ? this.#kept(context, journal, slot?.key, asked.record, false) : asked;
      approved = true;
    }
    // Journaled before it runs: a process killed while it runs never runs it again on resume.
    if (journal && slot) await journal.recordStart(slot.key, this.name, t.name, call.id, context.path);
    let record: ToolCallRecord & { value?: unknown };
    try {
      const value = await executeWithin(
        t.name,
        (signal) => t.execute(parsed.data, { agent: this.name, toolCallId: call.id, signal, run: context }),
        context.signal,
        t.timeoutMs ?? this.toolTimeoutMs,
      );
      const result = stringify(value);
      record = t.endsRun ? { call, result, isError: false, value } : { call, result, isError: false };
    } catch (error) {
      if (isRunStop(error)) throw error;
      record = { call, result: `Error: ${errorMessage(error)}`, isError: true };
    }
    return this.#kept(context, journal, slot?.key, record, approved);
  }

  // Whether a call of a tool with `needsApproval` may run: `true` when it needs no approval here or
  // was approved; the pending call when no decision was given (the run pauses); a record for a
  // rejected call (its message as a tool error) or a `needsApproval` that threw.
  async #approval(
    t: Tool,
    args: Record<string, unknown>,
    call: ToolCall,
    context: RunContext,
    journal: RunJournal | undefined,
    key: string | undefined,
  ): Promise<true | { pending: PendingApproval; record?: undefined } | { record: ToolCallRecord }> {
    const runId = journal?.runId ?? rootOf(context).runId;
    const approval: PendingApproval = {
      id:
        journal && key !== undefined
          ? journal.approvalId(key, t.name, call.arguments)
          : approvalId(runId, `${pathKeyOf(context)}/${this.name}/${call.id}`, t.name, call.arguments),
      runId,
      path: [...context.path],
      agent: this.name,
      tool: t.name,
      arguments: call.arguments,
      argumentsHash: argumentsHash(t.name, call.arguments),
    };
    // A decision (journaled, or given to this resume) is read first: never re-derived from needsApproval.
    const decision =
      journal && key !== undefined ? await journal.decide(approval.id, key) : journal?.decision(approval.id);
    const waited = decision === undefined && journal !== undefined && key !== undefined && journal.waited(key);
    if (decision === undefined && !waited && typeof t.needsApproval === 'function') {
      const toolContext: ToolContext = {
        agent: this.name,
        toolCallId: call.id,
        signal: context.signal,
        run: context,
      };
      try {
        if (!(await t.needsApproval(args, toolContext))) return true;
      } catch (error) {
        if (isRunStop(error)) throw error;
        return { record: { call, result: `Error: ${errorMessage(error)}`, isError: true } };
      }
    }
    if (decision === undefined) {
      if (journal && key !== undefined) await journal.recordPending(key, approval);
      context.emit({
        type: 'approval.pending',
        agent: this.name,
        tool: t.name,
        toolCallId: call.id,
        approval,
      });
      return { pending: approval };
    }
    if (decision.approved) return true;
    return {
      record: {
        call,
        result: decision.message ?? 'A person rejected this call; it was not executed.',
        isError: true,
      },
    };
  }

  // A tool call's answer, journaled (when the run has a journal) before the run uses it.
  async #kept(
    context: RunContext,
    journal: RunJournal | undefined,
    key: string | undefined,
    record: ToolCallRecord & { value?: unknown },
    approved: boolean | undefined,
  ): Promise<ToolCallRecord & { value?: unknown }> {
    if (journal && key !== undefined) {
      const ended = 'value' in record;
      await journal.recordTool({
        type: 'tool',
        key,
        path: [...context.path],
        agent: this.name,
        tool: record.call.name,
        toolCallId: record.call.id,
        result: record.result,
        isError: record.isError,
        ...(ended && { ended, value: record.value }),
        ...(approved !== undefined && { approved }),
      });
    }
    return this.#finish(context, record);
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

  // A tool call the journal answers: its events (marked replayed) and the journaled record.
  #replayedTool(
    call: ToolCall,
    stored: ToolCallEntry,
    context: RunContext,
  ): ToolCallRecord & { value?: unknown } {
    const { name: tool, id: toolCallId } = call;
    context.emit({
      type: 'tool.call',
      agent: this.name,
      tool,
      toolCallId,
      arguments: call.arguments,
      replayed: true,
    });
    const { result, isError } = stored;
    context.emit({
      type: 'tool.result',
      agent: this.name,
      tool,
      toolCallId,
      result,
      isError,
      replayed: true,
    });
    return stored.ended ? { call, result, isError, value: stored.value } : { call, result, isError };
  }
}

/** One tool call's outcome: its record, or the approval it waits for. */
type ToolOutcome = (ToolCallRecord & { value?: unknown }) | { pending: PendingApproval };

// The records of a turn's tool calls once all have settled, or the run stop among them: an abort
// first, then every call that waits for approval (with the pauses of runs nested in calls) as one
// RunPausedError, then a budget stop.
function settledRecords(
  settled: PromiseSettledResult<ToolOutcome>[],
): (ToolCallRecord & { value?: unknown })[] {
  const records: (ToolCallRecord & { value?: unknown })[] = [];
  const pending: PendingApproval[] = [];
  let stop: unknown;
  for (const outcome of settled) {
    if (outcome.status === 'rejected') {
      if (isAbort(outcome.reason)) throw outcome.reason;
      if (isPause(outcome.reason)) pending.push(...outcome.reason.pending);
      else stop ??= { error: outcome.reason };
    } else if ('pending' in outcome.value) pending.push(outcome.value.pending);
    else records.push(outcome.value);
  }
  if (pending.length > 0) throw new RunPausedError(pending);
  if (stop !== undefined) throw (stop as { error: unknown }).error;
  return records;
}

// Fills a result's totals: the agent's own calls plus the runs its tools started.
function withTotals(result: AgentResult<unknown>, ownReplayed: number, nested: RunTally): void {
  result.llmCalls = result.ownLlmCalls + nested.llmCalls;
  result.usage = addUsage({ ...result.ownUsage }, nested.usage);
  result.replayedCalls = ownReplayed + nested.replayedCalls;
  result.liveCalls = result.llmCalls - result.replayedCalls;
}

const noRunOptions: AgentRunOptions = Object.freeze({});

/** How a run is held to its output schema. */
interface RunOutput {
  schema: z.ZodObject;
  /** The model's native JSON output (else the forced final tool). */
  native: boolean;
}

// The attachments a text input goes with: this call's own, else its run's (a topology's task).
function attachmentsOf(
  options: AgentRunOptions,
  context: RunContext | undefined,
): readonly ContentPart[] | undefined {
  if (options.attachments === undefined) return context?.attachments;
  return context?.attachments === options.attachments
    ? context.attachments
    : validateContentParts(options.attachments, 'attachments');
}

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
