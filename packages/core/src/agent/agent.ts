import type { z } from 'zod';
import type { Message, Model, ModelRequest, ToolChoice, ToolDefinition } from '../contracts/model.js';
import { taskMessage, turnsAsText, withAttachments } from '../kernel/content-parts.js';
import { retryBlankAnswer } from '../kernel/empty-answer.js';
import { ConfigError, isPause, MaxTurnsExceededError } from '../kernel/errors.js';
import { type Guardrails, guardedRun, joinGuardrails, validateGuardrails } from '../kernel/guardrail.js';
import { journalOf, RunContext, withTally } from '../kernel/run-context.js';
import { endedRun, finishedPause } from '../kernel/run-end.js';
import { type RunStream, runStream } from '../kernel/run-stream.js';
import { addUsage } from '../kernel/usage.js';
import { type AsToolOptions, asTool } from '../primitives/as-tool.js';
import { type GenerateObjectResult, generateObject } from '../primitives/generate-object.js';
import { resolveModel } from '../primitives/resolve-model.js';
import {
  outputTool,
  outputToolName,
  responseFormatOf,
  validateOutputType,
} from '../primitives/structured-output.js';
import { type Tool, toolDefinition } from '../primitives/tool.js';
import { runToolCalls } from '../primitives/tool-runner.js';
import { assistantTurn } from '../providers/reasoning.js';
import {
  type AgentOptions,
  type AgentResult,
  type AgentRunOptions,
  answeredAtOnce,
  attachmentsOf,
  checkAgentOptions,
  checkRepairs,
  duplicateToolName,
  emptyResult,
  type RunOutput,
  type ToolCallRecord,
  totalsOf,
  typedAnswer,
  withTotals,
} from './agent-options.js';

export type { AgentOptions, AgentResult, AgentRunOptions, ToolCallRecord } from './agent-options.js';

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
    const checked = checkAgentOptions(options as AgentOptions<unknown>);
    this.name = options.name;
    this.description = options.description;
    this.instructions = options.instructions;
    this.model = resolveModel(options.model);
    this.tools = [...(options.tools ?? [])];
    this.temperature = options.temperature;
    this.maxTokens = options.maxTokens;
    this.maxTurns = checked.maxTurns;
    this.toolTimeoutMs = options.toolTimeoutMs;
    this.outputType = checked.outputType;
    this.maxOutputRepairs = checked.maxOutputRepairs;
    this.#guardrails = checked.guardrails;
    const own = [...this.tools];
    this.#output = checked.outputType && this.#outputFor(checked.outputType);
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

  /**
   * `run` as a live stream: iterate the run's events as they happen (model text as `model.delta`),
   * then await `result`; the same `RunStream` every topology's `stream` returns.
   */
  stream(
    input: string | Message[],
    options: AgentRunOptions = noRunOptions,
  ): RunStream<AgentResult<TOutput>> {
    return runStream((streamed) => this.run(input, { ...options, ...streamed }), options);
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

  // A run under input and output guardrails (the agent's and this run's): in a context of its own
  // (or a view of the shared one) whose calls a tripped guardrail cancels. Its totals are counted
  // through a tally, so the guardrail agents' calls are the run's calls too.
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
    const { context: counted, tally } = withTally(context);
    const text = typeof input === 'string' ? input : turnsAsText(input);
    try {
      const result = await guardedRun(
        counted,
        trip,
        guardrails,
        text,
        () => this.#run(input, { ...rest, context: counted }),
        (r) => r.output,
      );
      if (owned) context.finishJournal();
      return totalsOf(result, tally);
    } catch (error) {
      if (!owned) throw error;
      const thrown = isPause(error) ? finishedPause(context, error) : error;
      // The run ends here: its journal lease goes back.
      journalOf(context)?.release();
      throw thrown;
    }
  }

  // The run itself: in the shared context given, else in one of its own (its journal read first
  // and ended last). Closes the agent's trace with `agent.end`, `agent.paused` or `agent.error`.
  async #run(input: string | Message[], options: AgentRunOptions): Promise<AgentResult<TOutput>> {
    const owned = options.context === undefined;
    const context = options.context ?? new RunContext({ ...options, name: this.name });
    const history =
      typeof input === 'string'
        ? [taskMessage(input, attachmentsOf(options, context))]
        : withAttachments(input, attachmentsOf(options, context));
    const byName = this.#toolsOf(options);
    // The outermost run of a journal: read and checked before anything starts or is written.
    const ownsJournal = owned && context.parent === undefined && journalOf(context) !== undefined;
    if (ownsJournal) await journalOf(context)!.open();
    context.emit({ type: 'agent.start', agent: this.name });
    const ending = { type: 'agent.error', agent: () => this.name, ownsJournal } as const;
    return endedRun(context, ending, async () => {
      const result = await this.#loop(history, byName, options, context);
      if (ownsJournal) context.finishJournal();
      context.emit({
        type: 'agent.end',
        agent: this.name,
        output: result.output,
        ...(result.endedBy && { endedBy: result.endedBy.call.name }),
      });
      return result;
    });
  }

  // The tool loop: call the model, run the tools it asked for, call it again, until it answers.
  async #loop(
    history: Message[],
    byName: ReadonlyMap<string, Tool>,
    options: AgentRunOptions,
    context: RunContext,
  ): Promise<AgentResult<TOutput>> {
    const output = this.#outputOf(options);
    const definitions = this.#definitionsOf(byName);
    let toolChoice = options.toolChoice;
    let response = await context.callModel(
      this.model,
      this.#request(history, definitions, options, toolChoice),
    );
    const journal = journalOf(context);
    if (response.toolCalls.length === 0 && output === undefined && response.text.trim() !== '') {
      // Answered at once (most runs): no tool ran, no tally needed.
      return answeredAtOnce<TOutput>(response, journal?.wasReplayed(response) ? 1 : 0);
    }
    const result = emptyResult<TOutput>();
    // The tools run in a view of the run that tallies the runs they start (asTool), so the
    // result's totals include them whether this run has a context of its own or shares one.
    const { context: toolContext, tally } = withTally(context);
    let ownReplayed = 0;
    // Why each object given so far was refused (with `outputType`), for the repair and the error.
    const problems: string[] = [];
    for (let turn = 1; ; turn++) {
      result.ownLlmCalls = turn;
      if (journal?.wasReplayed(response)) ownReplayed += 1;
      addUsage(result.ownUsage, response.usage);
      result.output = response.text;
      const blank = response.toolCalls.length === 0 && output === undefined && response.text.trim() === '';
      if (blank && retryBlankAnswer(context, this.name)) {
        // The run wants this answer non-blank (nonEmptyAnswer): the final call once more, only it.
        context.emit({ type: 'answer.empty', agent: this.name, attempt: 1 });
        response = await context.callModel(
          this.model,
          this.#request([...history, ...result.messages], definitions, options, toolChoice),
        );
        continue;
      }
      if (response.toolCalls.length === 0) {
        result.messages.push(assistantTurn(response));
        const typed = typedAnswer(output, response.text);
        if (typed === undefined || 'value' in typed) {
          result.finalOutput = (typed === undefined ? response.text : typed.value) as TOutput;
          return withTotals(result, ownReplayed, tally);
        }
        problems.push(typed.problem);
        checkRepairs(this.name, this.maxOutputRepairs, problems);
        result.messages.push({ role: 'user', content: typed.repair });
      } else {
        result.messages.push(assistantTurn(response));
        if (toolChoice === 'required' || typeof toolChoice === 'object') toolChoice = 'auto';
        const records = await runToolCalls(this, response, byName, toolContext);
        let typedEnd: (ToolCallRecord & { value?: unknown }) | undefined;
        for (const record of records) {
          result.toolCalls.push(record);
          result.messages.push({ role: 'tool', toolCallId: record.call.id, content: record.result });
          if (record.call.name === outputToolName && output?.native === false) {
            if ('value' in record) typedEnd = record;
            else if (record.isError && !record.skipped) problems.push(record.result);
          } else if ('value' in record) result.endedBy = record as AgentResult['endedBy'];
        }
        if (typedEnd !== undefined) {
          result.finalOutput = typedEnd.value as TOutput;
          result.output = typedEnd.result;
          return withTotals(result, ownReplayed, tally);
        }
        if (result.endedBy) return withTotals(result, ownReplayed, tally);
        checkRepairs(this.name, this.maxOutputRepairs, problems);
      }
      if (turn >= this.maxTurns) throw new MaxTurnsExceededError(this.name, this.maxTurns);
      const request = this.#request([...history, ...result.messages], definitions, options, toolChoice);
      response = await context.callModel(this.model, request);
    }
  }

  // The tools of a run: the agent's own, this run's extra ones, and the final tool of a run's own
  // `outputType` (a topology's) on a model without native JSON output.
  #toolsOf(options: AgentRunOptions): ReadonlyMap<string, Tool> {
    let extra = options.tools ?? [];
    let own: Iterable<Tool> = this.#toolsByName.values();
    if (options.outputType !== undefined && options.outputType !== this.outputType) {
      const output = this.#outputFor(validateOutputType(options.outputType, `Agent "${this.name}" run`)!);
      own = this.tools;
      if (!output.native) extra = [...extra, outputTool(output.schema)];
    }
    if (extra.length === 0 && own !== this.tools) return this.#toolsByName;
    const tools = [...own, ...extra];
    const twice = duplicateToolName(tools);
    if (twice !== undefined) {
      throw new ConfigError(`Agent "${this.name}": two tools are named "${twice}" in this run.`);
    }
    return new Map(tools.map((t) => [t.name, t]));
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
      metadata:
        options.purpose === undefined ? this.#metadata : { agent: this.name, purpose: options.purpose },
    };
    if (output?.native) request.responseFormat = responseFormatOf(output.schema);
    return request;
  }
}

const noRunOptions: AgentRunOptions = Object.freeze({});
