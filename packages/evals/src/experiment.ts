import {
  AbortError,
  addUsage,
  type Budget,
  ConfigError,
  EmptyAnswerError,
  emptyUsage,
  errorMessage,
  fnv1a,
  isMember,
  type Journal,
  type Limiter,
  type Member,
  mapConcurrent,
  type RunOptions,
  SwarmError,
  type Usage,
  validateRunId,
} from '@swarm/core';
import { type Dataset, type EvalItem, dataset as makeDataset } from './dataset.js';
import type { Score, Scorer } from './scorers.js';
import {
  type MeanInterval,
  meanInterval,
  type PairedTest,
  pairedPermutationTest,
  percentile,
} from './stats.js';

/** What a function candidate returns: its answer, and what it cost where it called models. */
export type CandidateOutput =
  | string
  | { output: string; finalOutput?: unknown; usage?: Usage; llmCalls?: number };

/** A candidate: an agent or topology (run with the item's input), or a function (a programmatic strategy). */
export type Candidate =
  | Member
  | ((
      input: unknown,
      options: RunOptions & { item: EvalItem },
    ) => Promise<CandidateOutput> | CandidateOutput);

/** Price of a candidate's tokens, in your currency per million tokens. */
export interface Price {
  inputPerMillion: number;
  outputPerMillion: number;
}

/** Options of `runExperiment`. */
export interface ExperimentOptions {
  dataset: Dataset | readonly EvalItem[];
  /** The candidates by name: every one runs on every item. */
  candidates: Record<string, Candidate>;
  scorers: readonly Scorer[];
  /** Runs of each candidate on each item (default 1); scores are averaged per item before pairing. */
  repeats?: number;
  /** Shared by every run's model calls and every judge's. */
  limiter?: Limiter;
  /** Each run's budget (a run over it fails with BUDGET_EXCEEDED). */
  budget?: Budget;
  /** Runs in flight at once (an integer >= 1 or Infinity, default 16); their model calls queue on `limiter`. */
  concurrency?: number;
  /** Price per candidate name, for `cost.money`. */
  prices?: Record<string, Price>;
  /**
   * Keeps every finished run, so that running the experiment again with the same journal and
   * `experimentId` skips them (their results are read back) and runs only the rest.
   */
  journal?: Journal;
  /** The experiment's id in the journal (default `experiment`). */
  experimentId?: string;
  signal?: AbortSignal;
  /** Called after each run finishes (or is read from the journal), for a progress bar. */
  onProgress?: (done: number, total: number) => void;
}

/** One run of one candidate on one item. */
export interface RunRecord {
  candidate: string;
  item: number;
  repeat: number;
  output: string;
  /**
   * Present when the run failed: the swarm error code (`ERROR` for others) and message. A failed
   * run scores 0. A blank answer is a failure (`NO_ANSWER`), and so is an answer that is not text
   * (`CONFIG`).
   */
  error?: { code: string; message: string };
  /**
   * Per scorer, its score. A scorer that threw (a judge's model failed, say) scores 0 with its
   * `error` (code and message); the experiment goes on, and such a run is not journaled, so running
   * the experiment again with the journal runs it again.
   */
  scores: Record<string, { score: number; rationale?: string; error?: { code: string; message: string } }>;
  usage: Usage;
  llmCalls: number;
  /** The scorers' own model calls and tokens for this run. */
  judgeCalls: number;
  judgeUsage: Usage;
  latencyMs: number;
  /** True when read from the journal instead of run. */
  resumed?: boolean;
}

/** A candidate's summary. */
export interface CandidateSummary {
  name: string;
  /** Per scorer: mean of the per-item scores and its 95% confidence interval. */
  scores: Record<string, MeanInterval>;
  cost: { usage: Usage; llmCalls: number; money?: number; judgeCalls: number; judgeUsage: Usage };
  latency: { p50: number; p95: number };
  runs: number;
  /** Failed runs by error code. */
  failures: Record<string, number>;
  /** Scores that failed (the scorer threw), by scorer name, then error code. */
  scorerFailures: Record<string, Record<string, number>>;
}

/** A paired comparison of two candidates on one scorer, item by item. */
export interface Comparison extends PairedTest {
  a: string;
  b: string;
  scorer: string;
  /** The candidate with the higher mean when p < 0.05; else undefined (no significant difference). */
  better?: string;
}

/** What `runExperiment` returns. */
export interface ExperimentResult {
  dataset: Dataset;
  candidates: CandidateSummary[];
  comparisons: Comparison[];
  /** Every run, in order: candidate, then item, then repeat. */
  runs: RunRecord[];
  scorers: string[];
}

// A run's key in the journal: the candidate, the item's place and what it holds (so an item edited
// since is run again, not read back), and the repeat.
const runKey = (candidate: string, item: number, repeat: number, content: EvalItem) =>
  `${candidate}|${item}|${repeat}|${fnv1a(JSON.stringify([content.input ?? null, content.expected ?? null]))}`;

/**
 * Runs every candidate on every item `repeats` times, all concurrently (up to `concurrency` runs,
 * model calls under the one `limiter`), scores each answer with every scorer, and summarises. The
 * result does not depend on the order runs finish in. With a `journal`, each finished run is kept
 * and a second call with the same journal and `experimentId` runs only the missing ones.
 *
 * A run that throws is recorded as failed and a scorer that throws is recorded on its score; what
 * else throws (a scorer's `ConfigError`, a score out of [0, 1], the journal failing) stops the
 * experiment at once: no run starts after it, the runs in flight are aborted, and the experiment
 * rejects with that error. Aborting `signal` rejects it with the abort.
 */
export async function runExperiment(options: ExperimentOptions): Promise<ExperimentResult> {
  const data = Array.isArray(options.dataset)
    ? makeDataset(options.dataset as EvalItem[])
    : (options.dataset as Dataset);
  if (!data || !Array.isArray(data.items) || data.items.length === 0)
    throw new ConfigError('runExperiment: dataset has no items.');
  const names = Object.keys(options.candidates ?? {});
  if (names.length === 0) throw new ConfigError('runExperiment: give at least one candidate.');
  for (const name of names) {
    const c = options.candidates[name];
    if (typeof c !== 'function' && !isMember(c)) {
      throw new ConfigError(`runExperiment: candidate "${name}" must be an Agent, a Topology or a function.`);
    }
  }
  const scorers = [...(options.scorers ?? [])];
  if (scorers.length === 0) throw new ConfigError('runExperiment: give at least one scorer.');
  const scorerNames = scorers.map((s) => s.name);
  if (new Set(scorerNames).size !== scorerNames.length)
    throw new ConfigError('runExperiment: scorer names must be distinct.');
  const repeats = options.repeats ?? 1;
  if (!Number.isInteger(repeats) || repeats < 1)
    throw new ConfigError(`runExperiment: repeats must be an integer >= 1 (got ${repeats}).`);
  const journal = options.journal;
  if (
    journal !== undefined &&
    (typeof journal?.read !== 'function' || typeof journal?.append !== 'function')
  ) {
    throw new ConfigError(
      'runExperiment: journal must be a Journal (memoryJournal(), fileJournal(dir), or one with read and append).',
    );
  }
  const experimentId = validateRunId(options.experimentId ?? 'experiment');
  const concurrency = options.concurrency ?? 16;
  if (
    typeof concurrency !== 'number' ||
    !(concurrency >= 1) ||
    (Number.isFinite(concurrency) && !Number.isInteger(concurrency))
  ) {
    throw new ConfigError(
      `runExperiment: concurrency must be an integer >= 1 or Infinity (got ${String(concurrency)}).`,
    );
  }

  const finished = new Map<string, RunRecord>();
  if (journal) {
    for (const entry of await journal.read(experimentId)) {
      if (entry.type === 'tool' && entry.tool === 'eval.run' && entry.value)
        finished.set(entry.key, entry.value as RunRecord);
    }
  }

  const jobs = names.flatMap((candidate) =>
    data.items.flatMap((_, item) =>
      Array.from({ length: repeats }, (_, repeat) => ({ candidate, item, repeat })),
    ),
  );
  // The experiment's own signal: the caller's abort, or the first error that stops the experiment.
  const stop = new AbortController();
  const caller = options.signal;
  const forward = () => stop.abort(caller?.reason);
  if (caller?.aborted) forward();
  else caller?.addEventListener('abort', forward, { once: true });
  let fatal: { error: unknown } | undefined;
  let done = 0;
  let runs: RunRecord[];
  try {
    runs = await mapConcurrent(
      jobs,
      async ({ candidate, item, repeat }) => {
        try {
          const content = data.items[item] as EvalItem;
          const key = runKey(candidate, item, repeat, content);
          const kept = finished.get(key);
          let record: RunRecord;
          if (kept) {
            record = { ...kept, resumed: true };
          } else {
            record = await runOne(options, stop.signal, candidate, content, item, repeat, scorers);
            // A run whose scorer failed is run again by the next experiment on this journal.
            const scored = Object.values(record.scores).every((s) => s.error === undefined);
            if (journal && scored) {
              await journal.append(experimentId, {
                type: 'tool',
                key,
                path: [],
                agent: candidate,
                tool: 'eval.run',
                toolCallId: key,
                result: record.error ? record.error.message : record.output,
                isError: record.error !== undefined,
                value: record,
              });
            }
          }
          done++;
          options.onProgress?.(done, jobs.length);
          return record;
        } catch (error) {
          // The first error that is not the caller's abort stops every other run.
          if (!stop.signal.aborted) {
            fatal = { error };
            stop.abort(new AbortError('runExperiment: stopped by an earlier error.', { cause: error }));
          }
          throw error;
        }
      },
      { concurrency, signal: stop.signal },
    );
  } catch (error) {
    throw fatal === undefined ? error : fatal.error;
  } finally {
    caller?.removeEventListener('abort', forward);
  }

  const candidates = names.map((name) =>
    summarise(name, runs, data.items.length, scorerNames, options.prices?.[name]),
  );
  const comparisons: Comparison[] = [];
  for (let i = 0; i < names.length; i++) {
    for (let j = i + 1; j < names.length; j++) {
      const a = names[i] as string;
      const b = names[j] as string;
      for (const scorer of scorerNames) {
        const test = pairedPermutationTest(
          perItem(runs, a, scorer, data.items.length),
          perItem(runs, b, scorer, data.items.length),
        );
        const better =
          test.pValue < 0.05 && test.meanDifference !== 0 ? (test.meanDifference > 0 ? a : b) : undefined;
        comparisons.push({ a, b, scorer, ...test, ...(better ? { better } : {}) });
      }
    }
  }
  return { dataset: data, candidates, comparisons, runs, scorers: scorerNames };
}

async function runOne(
  options: ExperimentOptions,
  signal: AbortSignal,
  name: string,
  item: EvalItem,
  index: number,
  repeat: number,
  scorers: Scorer[],
): Promise<RunRecord> {
  const candidate = options.candidates[name] as Candidate;
  const runOptions: RunOptions = {
    limiter: options.limiter,
    budget: options.budget,
    signal,
    ...(item.attachments ? { attachments: item.attachments } : {}),
  };
  const task = typeof item.input === 'string' ? item.input : JSON.stringify(item.input);
  const started = performance.now();
  let output = '';
  let finalOutput: unknown;
  let usage = emptyUsage();
  let llmCalls = 0;
  let error: RunRecord['error'];
  try {
    if (typeof candidate === 'function') {
      const answer = await candidate(item.input, { ...runOptions, item });
      if (typeof answer === 'string') output = answer;
      else if (typeof answer?.output !== 'string') {
        throw new ConfigError(
          `runExperiment: candidate "${name}" returned ${describe(answer)}; return a string or { output: string }.`,
        );
      } else {
        output = answer.output;
        finalOutput = answer.finalOutput;
        if (answer.usage) usage = answer.usage;
        llmCalls = answer.llmCalls ?? 0;
      }
    } else {
      const result = await candidate.run(task, runOptions);
      output = result.output;
      finalOutput = result.finalOutput;
      usage = result.usage;
      llmCalls = result.llmCalls;
    }
    if (output.trim() === '' && finalOutput === undefined) throw new EmptyAnswerError(name, 1);
  } catch (caught) {
    if (signal.aborted) throw caught;
    error = { code: SwarmError.isInstance(caught) ? caught.code : 'ERROR', message: errorMessage(caught) };
  }
  const latencyMs = performance.now() - started;
  const scores: RunRecord['scores'] = {};
  const judgeUsage = emptyUsage();
  let judgeCalls = 0;
  for (const scorer of scorers) {
    if (error) {
      scores[scorer.name] = { score: 0, rationale: `run failed: ${error.code}` };
      continue;
    }
    let raw: Awaited<ReturnType<Scorer['score']>>;
    try {
      raw = await scorer.score({
        item,
        output,
        finalOutput: finalOutput ?? output,
        limiter: options.limiter,
        signal,
      });
    } catch (caught) {
      // A scorer that is misconfigured fails every run alike: that stops the experiment.
      if (signal.aborted || (SwarmError.isInstance(caught) && caught.code === 'CONFIG')) throw caught;
      const failure = {
        code: SwarmError.isInstance(caught) ? caught.code : 'ERROR',
        message: errorMessage(caught),
      };
      scores[scorer.name] = {
        score: 0,
        rationale: `scorer failed (${failure.code}): ${failure.message}`,
        error: failure,
      };
      continue;
    }
    const verdict = (typeof raw === 'number' ? { score: raw } : raw) as Score | null | undefined;
    if (typeof verdict?.score !== 'number' || !(verdict.score >= 0 && verdict.score <= 1)) {
      throw new ConfigError(
        `scorer "${scorer.name}" gave ${describe(verdict?.score ?? raw)}; a score is a number from 0 to 1.`,
      );
    }
    scores[scorer.name] =
      verdict.rationale === undefined
        ? { score: verdict.score }
        : { score: verdict.score, rationale: verdict.rationale };
    judgeCalls += verdict.llmCalls ?? 0;
    if (verdict.usage) addUsage(judgeUsage, verdict.usage);
  }
  return {
    candidate: name,
    item: index,
    repeat,
    output,
    ...(error ? { error } : {}),
    scores,
    usage,
    llmCalls,
    judgeCalls,
    judgeUsage,
    latencyMs,
  };
}

/** Per item, the candidate's score averaged over repeats. */
function perItem(runs: readonly RunRecord[], candidate: string, scorer: string, items: number): number[] {
  const sums = new Array<number>(items).fill(0);
  const counts = new Array<number>(items).fill(0);
  for (const run of runs) {
    if (run.candidate !== candidate) continue;
    sums[run.item] = (sums[run.item] as number) + (run.scores[scorer]?.score ?? 0);
    counts[run.item] = (counts[run.item] as number) + 1;
  }
  return sums.map((s, i) => s / Math.max(1, counts[i] as number));
}

function summarise(
  name: string,
  all: readonly RunRecord[],
  items: number,
  scorers: string[],
  price?: Price,
): CandidateSummary {
  const runs = all.filter((r) => r.candidate === name);
  const usage = emptyUsage();
  const judgeUsage = emptyUsage();
  let llmCalls = 0;
  let judgeCalls = 0;
  const failures: Record<string, number> = {};
  const scorerFailures: Record<string, Record<string, number>> = {};
  for (const run of runs) {
    for (const [scorer, score] of Object.entries(run.scores)) {
      if (score.error === undefined) continue;
      const byCode = scorerFailures[scorer] ?? {};
      scorerFailures[scorer] = byCode;
      byCode[score.error.code] = (byCode[score.error.code] ?? 0) + 1;
    }
    addUsage(usage, run.usage);
    addUsage(judgeUsage, run.judgeUsage);
    llmCalls += run.llmCalls;
    judgeCalls += run.judgeCalls;
    if (run.error) failures[run.error.code] = (failures[run.error.code] ?? 0) + 1;
  }
  const latencies = runs.map((r) => r.latencyMs);
  const money = price
    ? (usage.inputTokens * price.inputPerMillion + usage.outputTokens * price.outputPerMillion) / 1e6
    : undefined;
  return {
    name,
    scores: Object.fromEntries(
      scorers.map((s) => {
        // Scores lie in [0, 1]: so does the interval.
        const v = meanInterval(perItem(all, name, s, items));
        return [s, { ...v, low: Math.max(0, v.low), high: Math.min(1, v.high) }];
      }),
    ),
    cost: { usage, llmCalls, ...(money === undefined ? {} : { money }), judgeCalls, judgeUsage },
    latency: { p50: percentile(latencies, 50), p95: percentile(latencies, 95) },
    runs: runs.length,
    failures,
    scorerFailures,
  };
}

// A value as an error message names it: a string quoted, an object by its keys, else as it prints.
function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object' && value !== null) {
    return `an object with keys [${Object.keys(value).join(', ')}]`;
  }
  return String(value);
}
