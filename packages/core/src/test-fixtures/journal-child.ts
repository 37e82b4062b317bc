// A process for the journal tests (run through tsx): `hold <dir> <runId>` takes the run's lease in a
// file journal and waits to be killed; `trials <dir> <count>` runs journaled runs trial-0..count-1
// to their end (resuming each from its journal), for the crash trials, and records in <dir>:
// requests.log (one line per provider request), tools.log (one line per tool execution) and
// done.log (one line per finished run).
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import type { Model, ModelRequest, ModelResponse } from '../contracts/model.js';
import { fileJournal } from '../kernel/file-journal.js';
import { tool } from '../primitives/tool.js';

const [mode, dir, arg] = process.argv.slice(2);
if (!mode || !dir || !arg) throw new Error('usage: journal-child hold|trials <dir> <runId|count>');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const random = () => Math.random().toString(36).slice(2, 10);

if (mode === 'hold') {
  const lease = await fileJournal(dir).acquireLease!(arg);
  process.stdout.write(`held ${lease.token}\n`);
  setInterval(() => undefined, 60_000);
} else if (mode === 'trials') {
  const steps = 3;
  let current = '';
  const usage = { inputTokens: 1, outputTokens: 1, cachedTokens: 0, reasoningTokens: 0, totalTokens: 2 };
  // Answers differ between identical requests: a fresh nonce in every answer and tool call.
  const model: Model = {
    id: 'nondeterministic',
    async generate(request: ModelRequest): Promise<ModelResponse> {
      const runId = current;
      const done = request.messages.filter((m) => m.role === 'tool').length;
      const nonce = random();
      appendFileSync(
        join(dir, 'requests.log'),
        `${JSON.stringify({ pid: process.pid, runId, done, nonce })}\n`,
      );
      await sleep(Math.floor(Math.random() * 12));
      const base = { usage, modelId: 'nondeterministic' };
      if (done >= steps) return { ...base, text: `finished ${nonce}`, toolCalls: [], finishReason: 'stop' };
      return {
        ...base,
        text: '',
        toolCalls: [{ id: `call_${nonce}`, name: 'step', arguments: { n: done, nonce } }],
        finishReason: 'tool-calls',
      };
    },
  };
  const step = tool({
    name: 'step',
    description: 'Takes one step (a side effect: a line in tools.log).',
    parameters: z.object({ n: z.number(), nonce: z.string() }),
    execute: async ({ n, nonce }) => {
      await sleep(Math.floor(Math.random() * 6));
      appendFileSync(
        join(dir, 'tools.log'),
        `${JSON.stringify({ pid: process.pid, runId: current, n, nonce })}\n`,
      );
      return `step ${n} done`;
    },
  });
  const journal = fileJournal(join(dir, 'journal'));
  const agent = new Agent({ name: 'walker', model, tools: [step] });
  process.stdout.write('ready\n');
  for (let i = 0; i < Number(arg); i++) {
    current = `trial-${i}`;
    const result = await agent.run('Walk three steps.', {
      journal,
      runId: current,
      onEvent: () => undefined,
    });
    appendFileSync(
      join(dir, 'done.log'),
      `${JSON.stringify({ pid: process.pid, runId: current, output: result.output })}\n`,
    );
  }
  process.stdout.write('all done\n');
}
