import { getEventListeners } from 'node:events';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AbortError,
  Agent,
  ConfigError,
  emptyUsage,
  fileJournal,
  Limiter,
  type Model,
  ModelError,
  memoryJournal,
  messageText,
} from '@swarm/core';
import { respond, ScriptedModel } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import type { EvalItem } from './dataset.js';
import { runExperiment } from './experiment.js';
import { customScorer, exactMatch, modelJudge } from './scorers.js';

const items: EvalItem[] = Array.from({ length: 6 }, (_, i) => ({
  input: `${i} + ${i}`,
  expected: String(2 * i),
}));

const add = (input: unknown) => {
  const [a, b] = String(input).split(' + ').map(Number);
  return String((a as number) + (b as number));
};

describe('runExperiment', () => {
  it('runs agents and functions on every item, summarises, and compares with a paired test', async () => {
    const model = new ScriptedModel([], {
      fallback: respond((request) => add(messageText(request.messages.at(-1) ?? { content: '' }))),
      usage: { inputTokens: 10, outputTokens: 2, totalTokens: 12 },
    });
    const agent = new Agent({ name: 'adder', model });
    const result = await runExperiment({
      dataset: items,
      candidates: { agent, wrong: () => 'nope' },
      scorers: [exactMatch()],
      limiter: new Limiter({ concurrency: 2 }),
      prices: { agent: { inputPerMillion: 1_000_000, outputPerMillion: 2_000_000 } },
    });
    const [a, w] = result.candidates;
    expect(a?.scores.exact).toEqual({ mean: 1, low: 1, high: 1, n: 6 });
    expect(w?.scores.exact?.mean).toBe(0);
    expect(a?.cost).toMatchObject({ llmCalls: 6, judgeCalls: 0, money: 6 * (10 + 2 * 2) });
    expect(a?.cost.usage.inputTokens).toBe(60);
    expect(a?.runs).toBe(6);
    expect(a?.latency.p95).toBeGreaterThanOrEqual(a?.latency.p50 ?? 0);
    // Six differences of 1: only the all-positive and all-negative patterns reach |6|, p = 2/64.
    expect(result.comparisons).toEqual([
      {
        a: 'agent',
        b: 'wrong',
        scorer: 'exact',
        n: 6,
        meanDifference: 1,
        pValue: 2 / 64,
        method: 'exact',
        better: 'agent',
      },
    ]);
  });

  it('keeps input order whatever order runs finish in, and counts failures by code', async () => {
    const result = await runExperiment({
      dataset: items,
      candidates: {
        slowFirst: async (input, { item }) => {
          await new Promise((resolve) => setTimeout(resolve, (6 - items.indexOf(item)) * 3));
          return add(input);
        },
        failing: (input) => {
          if (input === '1 + 1') throw new ConfigError('bad');
          if (input === '2 + 2') throw new Error('plain');
          return add(input);
        },
      },
      scorers: [exactMatch()],
      repeats: 2,
    });
    expect(result.runs.map((r) => `${r.candidate}${r.item}.${r.repeat}`)).toEqual(
      ['slowFirst', 'failing'].flatMap((c) =>
        [0, 1, 2, 3, 4, 5].flatMap((i) => [`${c}${i}.0`, `${c}${i}.1`]),
      ),
    );
    const failing = result.candidates[1];
    expect(failing?.failures).toEqual({ CONFIG: 2, ERROR: 2 });
    expect(failing?.scores.exact?.mean).toBeCloseTo(4 / 6, 10);
    expect(result.runs.find((r) => r.candidate === 'failing' && r.item === 1)?.error).toEqual({
      code: 'CONFIG',
      message: 'bad',
    });
  });

  it("counts a judge's calls apart from the candidate's", async () => {
    const judgeModel = new ScriptedModel([], {
      fallback: respond(() => ({
        toolCalls: [{ name: 'judge', arguments: { score: 10, rationale: 'ok' } }],
      })),
      usage: { inputTokens: 5, outputTokens: 1, totalTokens: 6 },
    });
    const result = await runExperiment({
      dataset: items.slice(0, 2),
      candidates: { f: (input) => ({ output: add(input), llmCalls: 3 }) },
      scorers: [modelJudge({ model: judgeModel, criteria: 'right sum' })],
    });
    expect(result.candidates[0]?.cost).toMatchObject({ llmCalls: 6, judgeCalls: 2 });
    expect(result.candidates[0]?.cost.judgeUsage.inputTokens).toBe(10);
    expect(result.candidates[0]?.cost.usage.inputTokens).toBe(0);
    expect(result.candidates[0]?.scores.judge?.mean).toBe(1);
  });

  for (const kind of ['memory', 'file'] as const) {
    it(`an interrupted experiment resumes from its ${kind} journal without repeating finished runs`, async () => {
      const journal =
        kind === 'memory' ? memoryJournal() : fileJournal(await mkdtemp(join(tmpdir(), 'evals-journal-')));
      const calls: string[] = [];
      const controller = new AbortController();
      const candidate = (input: unknown) => {
        calls.push(String(input));
        if (calls.length === 4) {
          controller.abort();
          throw new AbortError('stopped');
        }
        return add(input);
      };
      const options = {
        dataset: items,
        candidates: { c: candidate },
        scorers: [exactMatch()],
        journal,
        experimentId: 'exp-1',
        concurrency: 1,
      };
      await expect(runExperiment({ ...options, signal: controller.signal })).rejects.toThrow();
      expect(calls).toEqual(['0 + 0', '1 + 1', '2 + 2', '3 + 3']);
      calls.length = 0;
      const result = await runExperiment(options);
      expect(calls).toEqual(['3 + 3', '4 + 4', '5 + 5']);
      expect(result.runs.map((r) => Boolean(r.resumed))).toEqual([true, true, true, false, false, false]);
      expect(result.candidates[0]?.scores.exact?.mean).toBe(1);
      calls.length = 0;
      await runExperiment(options);
      expect(calls).toEqual([]);
    });
  }

  it("runs go at once, and every candidate's model calls share the one limiter", async () => {
    let inFlight = 0;
    let most = 0;
    // A call is held until `target` calls are in flight together (or a second has passed, for a
    // last call left alone), so overlap never depends on the machine's speed.
    let target = 2;
    let waiting: (() => void)[] = [];
    const model: Model = {
      id: 'counting',
      async generate(request) {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          if (inFlight >= target) {
            for (const release of waiting) release();
            waiting = [];
          } else setTimeout(resolve, 1000);
        });
        inFlight--;
        return {
          text: add(messageText(request.messages.at(-1) ?? { content: '' })),
          toolCalls: [],
          usage: emptyUsage(),
          finishReason: 'stop',
          modelId: 'counting',
        };
      },
    };
    const candidates = { a: new Agent({ name: 'a', model }), b: new Agent({ name: 'b', model }) };
    await runExperiment({
      dataset: items,
      candidates,
      scorers: [exactMatch()],
      limiter: new Limiter({ concurrency: 2 }),
    });
    expect(most).toBe(2);
    most = 0;
    target = 12;
    const result = await runExperiment({ dataset: items, candidates, scorers: [exactMatch()] });
    // No limiter: the twelve runs are in flight together.
    expect(most).toBe(12);
    expect(result.candidates.map((c) => c.scores.exact?.mean)).toEqual([1, 1]);
  });

  it('a run over its budget fails with BUDGET_EXCEEDED and scores 0', async () => {
    const model = new ScriptedModel([], { fallback: respond(() => 'x') });
    const result = await runExperiment({
      dataset: items.slice(0, 2),
      candidates: { capped: new Agent({ name: 'capped', model }) },
      scorers: [exactMatch()],
      budget: { maxCalls: 0 },
    });
    expect(result.candidates[0]?.failures).toEqual({ BUDGET_EXCEEDED: 2 });
    expect(result.candidates[0]?.scores.exact?.mean).toBe(0);
  });

  it('refuses bad options with ConfigErrors', async () => {
    await expect(runExperiment({ dataset: items, candidates: {}, scorers: [exactMatch()] })).rejects.toThrow(
      ConfigError,
    );
    await expect(
      runExperiment({ dataset: items, candidates: { x: 3 as never }, scorers: [exactMatch()] }),
    ).rejects.toThrow(/candidate "x"/);
    await expect(
      runExperiment({ dataset: items, candidates: { x: () => 'a' }, scorers: [] }),
    ).rejects.toThrow(/scorer/);
    await expect(
      runExperiment({ dataset: items, candidates: { x: () => 'a' }, scorers: [exactMatch()], repeats: 0 }),
    ).rejects.toThrow(/repeats/);
    await expect(
      runExperiment({
        dataset: items,
        candidates: { x: () => 'a' },
        scorers: [{ name: 's', score: () => 2 }],
      }),
    ).rejects.toThrow(/from 0 to 1/);
    for (const concurrency of [0, 1.5, Number.NaN]) {
      await expect(
        runExperiment({ dataset: items, candidates: { x: () => 'a' }, scorers: [exactMatch()], concurrency }),
      ).rejects.toThrow(/^runExperiment: concurrency must be an integer >= 1 or Infinity/);
    }
  });
});

describe('runExperiment: failures', () => {
  it('a scorer that throws on one run fails only that score: every other run keeps its result, and a rerun on the journal runs only that one', async () => {
    const journal = memoryJournal();
    const calls: string[] = [];
    let judgeDown = true;
    const options = {
      dataset: items,
      candidates: {
        c: (input: unknown) => {
          calls.push(String(input));
          return add(input);
        },
      },
      scorers: [
        exactMatch(),
        customScorer('judge', ({ item }) => {
          if (judgeDown && item.input === '2 + 2')
            throw new ModelError('judge: 503 overloaded', { provider: 'x' });
          return 1;
        }),
      ],
      journal,
      experimentId: 'exp-judge',
    };
    const result = await runExperiment(options);
    expect(result.runs).toHaveLength(6);
    expect(result.runs.every((r) => r.error === undefined && r.scores.exact?.score === 1)).toBe(true);
    expect(result.runs[2]?.scores.judge).toEqual({
      score: 0,
      rationale: 'scorer failed (MODEL): judge: 503 overloaded',
      error: { code: 'MODEL', message: 'judge: 503 overloaded' },
    });
    expect(result.runs.filter((r) => r.scores.judge?.score === 1)).toHaveLength(5);
    expect(result.candidates[0]?.scorerFailures).toEqual({ judge: { MODEL: 1 } });
    expect(result.candidates[0]?.failures).toEqual({});
    expect(result.candidates[0]?.scores.judge?.mean).toBeCloseTo(5 / 6, 10);

    calls.length = 0;
    judgeDown = false;
    const again = await runExperiment(options);
    expect(calls).toEqual(['2 + 2']);
    expect(again.runs.map((r) => Boolean(r.resumed))).toEqual([true, true, false, true, true, true]);
    expect(again.candidates[0]?.scores.judge?.mean).toBe(1);
    expect(again.candidates[0]?.scorerFailures).toEqual({});
  });

  it('a score out of [0, 1] stops the experiment at once: no run starts after it, and it rejects with that ConfigError', async () => {
    const calls: string[] = [];
    const run = runExperiment({
      dataset: items,
      candidates: {
        c: (input) => {
          calls.push(String(input));
          return add(input);
        },
      },
      scorers: [customScorer('bad', () => 2)],
      concurrency: 1,
    });
    await expect(run).rejects.toThrow(ConfigError);
    await expect(run).rejects.toThrow(/scorer "bad" gave 2; a score is a number from 0 to 1/);
    expect(calls).toEqual(['0 + 0']);
  });

  it('the error that stops the experiment aborts the runs in flight, and is what it rejects with', async () => {
    const aborted: unknown[] = [];
    const run = runExperiment({
      dataset: items.slice(0, 2),
      candidates: {
        c: (input, { signal }) => {
          // The first item's run waits for its signal: only the stop can end it.
          if (input !== '0 + 0') return add(input);
          return new Promise<string>((_, reject) => {
            signal?.addEventListener('abort', () => {
              aborted.push(signal.reason);
              reject(signal.reason);
            });
          });
        },
      },
      scorers: [{ name: 'broken', score: () => undefined as never }],
      concurrency: 2,
    });
    await expect(run).rejects.toThrow(ConfigError);
    await expect(run).rejects.toThrow(/scorer "broken" gave undefined/);
    expect(aborted).toEqual([expect.any(AbortError)]);
  });

  it('a blank answer is a failed run (NO_ANSWER), and an answer that is not text a CONFIG failure: neither is scored as an answer', async () => {
    const result = await runExperiment({
      dataset: items.slice(0, 2),
      candidates: {
        blank: () => '  ',
        notText: () => ({ output: 42 }) as never,
        nothing: () => undefined as never,
      },
      scorers: [customScorer('anything', () => 1)],
    });
    const [blank, notText, nothing] = result.candidates;
    expect(blank?.failures).toEqual({ NO_ANSWER: 2 });
    expect(notText?.failures).toEqual({ CONFIG: 2 });
    expect(nothing?.failures).toEqual({ CONFIG: 2 });
    expect(result.candidates.map((c) => c.scores.anything?.mean)).toEqual([0, 0, 0]);
    expect(result.runs.find((r) => r.candidate === 'notText')?.error?.message).toBe(
      'runExperiment: candidate "notText" returned an object with keys [output]; return a string or { output: string }.',
    );
  });

  it('an item edited since the journal kept its run is run again, not read back', async () => {
    const journal = memoryJournal();
    const calls: string[] = [];
    const candidates = {
      c: (input: unknown) => {
        calls.push(String(input));
        return add(input);
      },
    };
    const first = items.slice(0, 3);
    await runExperiment({ dataset: first, candidates, scorers: [exactMatch()], journal });
    calls.length = 0;
    const edited = [first[0]!, { input: '7 + 7', expected: '14' }, first[2]!];
    const result = await runExperiment({ dataset: edited, candidates, scorers: [exactMatch()], journal });
    expect(calls).toEqual(['7 + 7']);
    expect(result.runs.map((r) => [r.output, Boolean(r.resumed)])).toEqual([
      ['0', true],
      ['14', false],
      ['4', true],
    ]);
  });

  it("leaves no listener on the caller's signal", async () => {
    const controller = new AbortController();
    const model = new ScriptedModel([], { fallback: respond(() => '0') });
    await runExperiment({
      dataset: items.slice(0, 2),
      candidates: { agent: new Agent({ name: 'a', model }), f: (input) => add(input) },
      scorers: [exactMatch()],
      signal: controller.signal,
    });
    expect(getEventListeners(controller.signal, 'abort')).toEqual([]);
  });
});
