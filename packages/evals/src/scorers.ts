import { ConfigError, generateObject, type Limiter, type ModelLike, type Usage } from '@swarm/core';
import { z } from 'zod';
import type { EvalItem } from './dataset.js';

/** What a scorer sees of one run: the item, and the candidate's answer. */
export interface ScoreInput {
  item: EvalItem;
  /** The candidate's final text. */
  output: string;
  /** The candidate's structured answer where it gave one (a `finalOutput`); else the text. */
  finalOutput: unknown;
  /** The limiter of the experiment, for scorers that call a model. */
  limiter?: Limiter;
  signal?: AbortSignal;
}

/** A scorer's verdict: a score from 0 (wrong) to 1 (right), and what the scorer's own model calls cost. */
export interface Score {
  score: number;
  rationale?: string;
  /** The scorer's own model calls (a judge's), counted apart from the candidate's. */
  llmCalls?: number;
  usage?: Usage;
}

/** Scores one run. `score` returns a number in [0, 1] or a `Score`. */
export interface Scorer {
  readonly name: string;
  score(input: ScoreInput): number | Score | Promise<number | Score>;
}

function named(name: string | undefined, fallback: string): string {
  const value = name ?? fallback;
  if (typeof value !== 'string' || value.trim() === '')
    throw new ConfigError(`scorer name must be a non-empty string (got ${JSON.stringify(value)}).`);
  return value;
}

function expectedText(item: EvalItem, scorer: string): string {
  if (item.expected === undefined)
    throw new ConfigError(`scorer "${scorer}": the item has no "expected" to compare with.`);
  return typeof item.expected === 'string' ? item.expected : JSON.stringify(item.expected);
}

/** 1 when the answer is exactly `expected` (its JSON when not a string), else 0. */
export function exactMatch(options: { name?: string } = {}): Scorer {
  const name = named(options.name, 'exact');
  return { name, score: ({ item, output }) => (output === expectedText(item, name) ? 1 : 0) };
}

/**
 * Normalises text for `normalizedMatch`: Unicode NFKC, lower case, punctuation and surrounding
 * quotes dropped, runs of white space made one space, trimmed.
 */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** 1 when the answer equals `expected` once both are normalised (`normalizeText`), else 0. */
export function normalizedMatch(
  options: { name?: string; normalize?: (text: string) => string } = {},
): Scorer {
  const name = named(options.name, 'normalized');
  const normalize = options.normalize ?? normalizeText;
  return {
    name,
    score: ({ item, output }) => (normalize(output) === normalize(expectedText(item, name)) ? 1 : 0),
  };
}

/** 1 when the answer matches `pattern`, else 0. */
export function regexMatch(pattern: RegExp, options: { name?: string } = {}): Scorer {
  if (!(pattern instanceof RegExp)) throw new ConfigError('regexMatch: pattern must be a RegExp.');
  const name = named(options.name, `regex ${pattern}`);
  return {
    name,
    score: ({ output }) => {
      pattern.lastIndex = 0;
      return pattern.test(output) ? 1 : 0;
    },
  };
}

/**
 * 1 when the first number in the answer is within `tolerance` of the expected number (absolute,
 * or relative to |expected| with `relative: true`), else 0; an answer with no number scores 0.
 */
export function numericTolerance(options: { tolerance: number; relative?: boolean; name?: string }): Scorer {
  const { tolerance, relative = false } = options;
  if (!(tolerance >= 0))
    throw new ConfigError(`numericTolerance: tolerance must be a number >= 0 (got ${tolerance}).`);
  const name = named(options.name, 'numeric');
  return {
    name,
    score: ({ item, output }) => {
      const expected = Number(item.expected);
      if (!Number.isFinite(expected))
        throw new ConfigError(`scorer "${name}": the item's "expected" is not a number.`);
      const found = /[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/.exec(output);
      if (!found) return { score: 0, rationale: 'no number in the answer' };
      const value = Number(found[0]);
      const allowed = relative ? tolerance * Math.abs(expected) : tolerance;
      return Math.abs(value - expected) <= allowed
        ? 1
        : { score: 0, rationale: `${value} is not within ${allowed} of ${expected}` };
    },
  };
}

/** 1 when the answer is JSON that `schema` accepts, else 0 (the rationale says why). */
export function jsonSchemaValid(schema: z.ZodType, options: { name?: string } = {}): Scorer {
  const name = named(options.name, 'json-schema');
  return {
    name,
    score: ({ output }) => {
      let value: unknown;
      try {
        value = JSON.parse(output);
      } catch {
        return { score: 0, rationale: 'not JSON' };
      }
      const parsed = schema.safeParse(value);
      if (parsed.success) return 1;
      const issue = parsed.error.issues[0];
      return { score: 0, rationale: `${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}` };
    },
  };
}

/** A scorer from a function: returns a number in [0, 1] (a boolean counts as 1 or 0) or a `Score`. */
export function customScorer(
  name: string,
  fn: (input: ScoreInput) => number | boolean | Score | Promise<number | boolean | Score>,
): Scorer {
  if (typeof fn !== 'function') throw new ConfigError('customScorer: fn must be a function.');
  const checked = named(name, '');
  return {
    name: checked,
    score: async (input) => {
      const value = await fn(input);
      return typeof value === 'boolean' ? (value ? 1 : 0) : value;
    },
  };
}

/** What a judge model answers: a score from 0 to 10 and why. */
export const judgeSchema = z.object({
  score: z
    .number()
    .min(0)
    .max(10)
    .describe('How well the answer meets the criteria: 0 (not at all) to 10 (fully).'),
  rationale: z.string().describe('One or two sentences on why.'),
});

/**
 * A model-judged scorer: the judge reads the task, the expected answer (when there is one), the
 * answer and `criteria`, and answers `{ score: 0..10, rationale }` through `generateObject`. The
 * score is the judge's divided by 10; its calls and tokens are the scorer's own (`Score.llmCalls`,
 * `Score.usage`), never the candidate's. Uses the experiment's limiter.
 */
export function modelJudge(options: {
  model: ModelLike;
  criteria: string;
  name?: string;
  maxTokens?: number;
}): Scorer {
  if (typeof options.criteria !== 'string' || options.criteria.trim() === '')
    throw new ConfigError('modelJudge: criteria must be a non-empty string.');
  const name = named(options.name, 'judge');
  return {
    name,
    score: async ({ item, output, limiter, signal }) => {
      const task = typeof item.input === 'string' ? item.input : JSON.stringify(item.input);
      const expected =
        item.expected === undefined
          ? ''
          : `\n\nExpected answer:\n${typeof item.expected === 'string' ? item.expected : JSON.stringify(item.expected)}`;
      const result = await generateObject(options.model, {
        schema: judgeSchema,
        name: 'judge',
        agent: name,
        purpose: 'eval-judge',
        system: `You grade answers. Criteria: ${options.criteria}`,
        prompt: `Task:\n${task}${expected}\n\nAnswer to grade:\n${output}`,
        limiter,
        signal,
        maxTokens: options.maxTokens,
      });
      return {
        score: result.object.score / 10,
        rationale: result.object.rationale,
        llmCalls: result.llmCalls,
        usage: result.usage,
      };
    },
  };
}
