import {
  booleanOption,
  ConfigError,
  concurrencyOption,
  formatOrSchema,
  type GuardrailOptions,
  integerOption,
  type ModelLike,
  numberOption,
  type OutputType,
  optionalIntegerOption,
  outputTypes,
} from '@swarm/core';
import type { z } from 'zod';
import { TREE_OF_THOUGHTS_SYSTEM_PROMPT } from './prompts.js';
import type { AnswerWriter, ThoughtEvaluator, ThoughtGenerator } from './strategies.js';

/** `'bfs'` keeps the best `breadth` open nodes per level; `'dfs'` follows the best child and backtracks. */
export type SearchAlgorithm = 'bfs' | 'dfs';

/** `'propose'`: one call for `numThoughts` distinct steps; `'sample'`: one call per step; or your own function. */
export type GenerationStrategy = 'propose' | 'sample' | ThoughtGenerator;

/** `'value'`: rate each candidate on its own; `'vote'`: compare candidates and vote; or your own function. */
export type EvaluationStrategy = 'value' | 'vote' | ThoughtEvaluator;

/** `'model'`: one model call writes the answer from the best path; or your own function. */
export type AnswerStrategy = 'model' | AnswerWriter;

/** Settings applied to every internal model call (the seed's `agent_kwargs`). */
export interface ToTAgentOptions {
  /** Output token cap of each call. */
  maxTokens?: number;
  /**
   * Repair turns `generateObject` may spend on an invalid function call (default 0): with 0 a bad
   * call costs exactly one call and one candidate, so the Cost table holds exactly.
   */
  maxRepairs?: number;
}

/** Constructor options of `TreeOfThoughts`: the seed's, in camelCase, with the seed's defaults. */
export interface TreeOfThoughtsOptions<O extends OutputType = OutputType> extends GuardrailOptions {
  /** Used in logs and the conversation, and as the prefix of internal agent names (default `'Tree-of-Thoughts-Agent'`). */
  name?: string;
  description?: string;
  /** A Model or model string (default `'gpt-5.4'`); it must support function calling. */
  model?: ModelLike;
  /** System prompt of every model call (default `TREE_OF_THOUGHTS_SYSTEM_PROMPT`). */
  systemPrompt?: string;
  searchAlgorithm?: SearchAlgorithm;
  generationStrategy?: GenerationStrategy;
  evaluationStrategy?: EvaluationStrategy;
  /** How the answer is written from the best path (default `'model'`; not in the seed). */
  answerStrategy?: AnswerStrategy;
  /** Candidate steps generated per expanded node (default 3). */
  numThoughts?: number;
  /** BFS beam width: open nodes kept per level (default 2; ignored by DFS). */
  breadth?: number;
  /** Maximum steps on a path; steps at this depth are always final (default 3). */
  maxDepth?: number;
  /** Evaluator calls per candidate (`'value'`) or per comparison (`'vote'`) (default 1). */
  nEvaluateSamples?: number;
  /** Candidates scoring below this are pruned (default 0.5). */
  valueThreshold?: number;
  /** Cap on nodes expanded per search (default: no cap). */
  maxExpansions?: number;
  /** What one step looks like for your task; shown to the generator. */
  thoughtDescription?: string;
  /** How to judge progress for your task; shown to the evaluator. */
  evaluationCriteria?: string;
  /** Sampling temperature of every call; unset sends none (the provider's default). */
  temperature?: number;
  /**
   * Maximum concurrent strategy calls within one search: an integer >= 1 or `Infinity` (default
   * `Infinity`, so each level takes one call's time; a shared `limiter` still caps the calls).
   */
  maxWorkers?: number;
  /**
   * How `run` formats the conversation (default `'final'`: the answer string); or a `z.object(...)`:
   * the answer is written as a validated object (`search(...).finalOutput`, its JSON as the answer).
   */
  outputType?: O | z.ZodObject;
  /** Log every evaluated candidate with its depth, score and flags to stderr. */
  verbose?: boolean;
  /** Settings for every internal model call. */
  agentOptions?: ToTAgentOptions;
}

/** Options with defaults applied and validated. */
export interface ResolvedOptions {
  name: string;
  description: string;
  model: ModelLike;
  systemPrompt: string;
  searchAlgorithm: SearchAlgorithm;
  generationStrategy: GenerationStrategy;
  evaluationStrategy: EvaluationStrategy;
  answerStrategy: AnswerStrategy;
  numThoughts: number;
  breadth: number;
  maxDepth: number;
  nEvaluateSamples: number;
  valueThreshold: number;
  maxExpansions: number | undefined;
  thoughtDescription: string | undefined;
  evaluationCriteria: string | undefined;
  temperature: number | undefined;
  maxWorkers: number;
  outputType: OutputType;
  /** The schema of a typed answer (`outputType` given as a `z.object`). */
  answerSchema: z.ZodObject | undefined;
  verbose: boolean;
  maxTokens: number | undefined;
  maxRepairs: number;
}

// The conversation format of `run`, and the schema of a typed answer.
function formatOrSchemaOptions(options: TreeOfThoughtsOptions) {
  const chosen = formatOrSchema(owner, options.outputType, outputTypes, 'final');
  if (chosen.schema && options.answerStrategy !== undefined && options.answerStrategy !== 'model') {
    throw new ConfigError(
      `${owner}: a z.object outputType is written by the model's answer call: leave answerStrategy 'model'.`,
    );
  }
  return { outputType: chosen.format, answerSchema: chosen.schema };
}

/** Applies the seed's defaults and throws a `ConfigError` naming the first invalid option. */
export function resolveOptions(options: TreeOfThoughtsOptions): ResolvedOptions {
  const resolved: ResolvedOptions = {
    name: options.name ?? 'Tree-of-Thoughts-Agent',
    description: options.description ?? 'Solves tasks by searching a tree of reasoning steps.',
    model: options.model ?? 'gpt-5.4',
    systemPrompt: options.systemPrompt ?? TREE_OF_THOUGHTS_SYSTEM_PROMPT,
    searchAlgorithm: options.searchAlgorithm ?? 'bfs',
    generationStrategy: options.generationStrategy ?? 'propose',
    evaluationStrategy: options.evaluationStrategy ?? 'value',
    answerStrategy: options.answerStrategy ?? 'model',
    numThoughts: integerOption(owner, 'numThoughts', options.numThoughts, 3, 1),
    breadth: integerOption(owner, 'breadth', options.breadth, 2, 1),
    maxDepth: integerOption(owner, 'maxDepth', options.maxDepth, 3, 1),
    nEvaluateSamples: integerOption(owner, 'nEvaluateSamples', options.nEvaluateSamples, 1, 1),
    valueThreshold: numberOption(owner, 'valueThreshold', options.valueThreshold, 0.5, 0, 1),
    maxExpansions: optionalIntegerOption(owner, 'maxExpansions', options.maxExpansions),
    thoughtDescription: options.thoughtDescription,
    evaluationCriteria: options.evaluationCriteria,
    temperature: options.temperature,
    maxWorkers: concurrencyOption(owner, 'maxWorkers', options.maxWorkers),
    ...formatOrSchemaOptions(options),
    verbose: booleanOption(owner, 'verbose', options.verbose, false),
    maxTokens: optionalIntegerOption(owner, 'agentOptions.maxTokens', options.agentOptions?.maxTokens),
    maxRepairs: integerOption(owner, 'agentOptions.maxRepairs', options.agentOptions?.maxRepairs, 0, 0),
  };
  const r = resolved;
  if (typeof r.name !== 'string' || r.name.trim() === '') fail('name must be a non-empty string');
  oneOf('searchAlgorithm', r.searchAlgorithm, ['bfs', 'dfs']);
  oneOf('generationStrategy', r.generationStrategy, ['propose', 'sample']);
  oneOf('evaluationStrategy', r.evaluationStrategy, ['value', 'vote']);
  oneOf('answerStrategy', r.answerStrategy, ['model']);
  if (r.temperature !== undefined && !(Number.isFinite(r.temperature) && r.temperature >= 0)) {
    fail(`temperature must be a number >= 0 (got ${r.temperature})`);
  }
  return resolved;
}

const owner = 'TreeOfThoughts';

function fail(message: string): never {
  throw new ConfigError(`${owner}: ${message}.`);
}

function oneOf(option: string, value: unknown, accepted: readonly string[]): void {
  const functionAllowed = option.endsWith('Strategy');
  if (functionAllowed && typeof value === 'function') return;
  if (typeof value !== 'string' || !accepted.includes(value)) {
    const accepts = accepted.map((a) => `'${a}'`).join(', ');
    fail(
      `${option} must be one of ${accepts}${functionAllowed ? ' or a function' : ''} (got ${JSON.stringify(value)})`,
    );
  }
}
