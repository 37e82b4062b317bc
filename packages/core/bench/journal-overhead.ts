// What a journal adds to a run: the one-tool turn (the model calls `add`, then answers) with a
// model that answers in 20 ms, without a journal, with memoryJournal() and with fileJournal(dir),
// as wall time per model call (each journaled run is a new run id, so every call is live and
// journaled). Beside it, the framework CPU time per call with an instant model, and what one
// flushed append costs on this disk (the floor of a file journal's cost per call). Every figure is
// measured in the same run. Runs the built package (`pnpm bench` builds first); run with
// `pnpm --filter @swarm/core bench`.
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fileJournal, type Journal, type ModelRequest, memoryJournal, tool } from '@swarm/core';
import { z } from 'zod';
import { compare, fakeModel, median, scriptedReply, verdict } from './measure.js';

const latencyMs = 20;
const callsPerTurn = 2;

const add = tool({
  name: 'add',
  description: 'Adds two numbers.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

const slowModel = {
  id: 'slow',
  generate: async (request: ModelRequest) => {
    await new Promise((resolve) => setTimeout(resolve, latencyMs));
    return scriptedReply(request);
  },
};

// The same work, longer: the model asks for `add` nine times (one call a turn), then answers.
const longTurns = 10;
const slowLongModel = {
  id: 'slow-long',
  generate: async (request: ModelRequest) => {
    await new Promise((resolve) => setTimeout(resolve, latencyMs));
    const done = request.messages.filter((m) => m.role === 'tool').length;
    if (done >= longTurns - 1) return scriptedReply(request);
    const first = scriptedReply({ messages: [{ role: 'user', content: 'go' }] });
    return { ...first, toolCalls: [{ ...first.toolCalls[0]!, id: `call_${done + 1}` }] };
  },
};

/** Median wall milliseconds per model call of each side, sides alternating round by round. */
async function wallPerCall<K extends string>(
  sides: Record<K, () => Promise<unknown>>,
  turnsPerRound: number,
  rounds: number,
  callsPerTurn: number,
): Promise<{ perCall: Record<K, number>; ratio: (a: K, b: K) => number }> {
  const names = Object.keys(sides) as K[];
  const samples = new Map<K, number[]>(names.map((n) => [n, []]));
  for (const name of names) await sides[name]();
  for (let round = 0; round < rounds; round++) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) {
      const start = performance.now();
      for (let i = 0; i < turnsPerRound; i++) await sides[name]();
      samples.get(name)!.push((performance.now() - start) / (turnsPerRound * callsPerTurn));
    }
  }
  const of = (name: K) => samples.get(name)!;
  return {
    perCall: Object.fromEntries(names.map((n) => [n, median(of(n))])) as Record<K, number>,
    ratio: (a, b) => median(of(a).map((value, i) => value / of(b)[i]!)),
  };
}

// What one flushed append of a journal-sized line costs on this disk, spaced as a run spaces them
// (a model call apart; back to back they cost about half): open, write, fdatasync, close.
async function flushedAppendMs(dir: string): Promise<number> {
  const file = join(dir, 'probe.jsonl');
  const line = `${JSON.stringify({ type: 'model', key: 'x'.repeat(40), response: { text: 'The sum is 5.' } })}\n`;
  const times: number[] = [];
  for (let i = 0; i < 30; i++) {
    await new Promise((resolve) => setTimeout(resolve, latencyMs));
    const start = performance.now();
    const handle = await open(file, 'a');
    try {
      await handle.write(line);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    times.push(performance.now() - start);
  }
  return median(times);
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'swarm-journal-bench-'));
  try {
    let id = 0;
    type BenchModel = typeof slowModel | typeof fakeModel;
    const journaled = (journal: Journal, model: BenchModel) => {
      const agent = new Agent({ name: 'bench', model, tools: [add] });
      return () => agent.run('What is 2 + 3?', { journal, runId: `run-${++id}` });
    };
    const plain = (model: BenchModel) => {
      const agent = new Agent({ name: 'bench', model, tools: [add] });
      return () => agent.run('What is 2 + 3?');
    };

    // The disk's flush time drifts on a shared machine: probed before and after the rounds.
    const flushBefore = await flushedAppendMs(dir);
    const wall = await wallPerCall(
      {
        none: plain(slowModel),
        memory: journaled(memoryJournal(), slowModel),
        file: journaled(fileJournal(dir), slowModel),
      },
      10,
      8,
      callsPerTurn,
    );
    const long = await wallPerCall(
      {
        none: plain(slowLongModel),
        file: journaled(fileJournal(dir), slowLongModel),
      },
      2,
      6,
      longTurns,
    );
    const flush = (flushBefore + (await flushedAppendMs(dir))) / 2;
    const t = wall.perCall;
    const fileRatio = wall.ratio('file', 'none');
    console.log(
      `Journal overhead per model call, one-tool turn, a model answering in ${latencyMs} ms (wall time)`,
    );
    console.log(`  no journal: ${t.none.toFixed(2)} ms per call`);
    console.log(
      `  memoryJournal(): ${t.memory.toFixed(2)} ms per call, ratio ${wall.ratio('memory', 'none').toFixed(3)}x`,
    );
    console.log(
      `  fileJournal(dir): ${t.file.toFixed(2)} ms per call, ratio ${fileRatio.toFixed(3)}x (target < 1.05x: ${verdict(fileRatio < 1.05)})`,
    );
    const longRatio = long.ratio('file', 'none');
    console.log(
      `  fileJournal(dir), a ${longTurns}-call run (nine tool turns): ${long.perCall.file.toFixed(2)} ms vs ${long.perCall.none.toFixed(2)} ms per call, ratio ${longRatio.toFixed(3)}x (target < 1.05x: ${verdict(longRatio < 1.05)})`,
    );
    // A run of the one-tool turn syncs four times: its new file (first answer and header, then the
    // directory), its tool call, its second answer: two syncs per model call, each waited for.
    const expected = 1 + (2 * flush) / t.none;
    console.log(
      `  one flushed append (open, write, fdatasync, close) on this disk, a call apart, before and after: ${flush.toFixed(2)} ms; at two per model call that predicts ${expected.toFixed(3)}x`,
    );

    const cpu = await compare(
      {
        none: plain(fakeModel),
        memory: journaled(memoryJournal(), fakeModel),
      },
      { perRound: 500, rounds: 6, warmup: 1_000 },
    );
    const perCall = (cpu.perCall.memory - cpu.perCall.none) / callsPerTurn;
    console.log('Journal CPU time per model call, instant fake model (memoryJournal: keys, copies, events)');
    console.log(
      `  ${(cpu.perCall.memory / callsPerTurn).toFixed(1)} µs vs ${(cpu.perCall.none / callsPerTurn).toFixed(1)} µs without a journal: ${perCall.toFixed(1)} µs per call`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
