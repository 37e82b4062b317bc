import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import { AbortError, ConfigError } from '../kernel/errors.js';
import { reply, ScriptedModel, toolCall } from '../testing/scripted-model.js';
import { type Tool, tool } from './tool.js';

/** A tool whose execute never settles and ignores its signal; it records the signal it was given. */
function stuckTool(seen: (AbortSignal | undefined)[] = []): Tool {
  return tool({
    name: 'stuck',
    description: 'Never returns.',
    parameters: z.object({}),
    execute: (_args, { signal }) => {
      seen.push(signal);
      return new Promise<never>(() => undefined);
    },
  });
}

describe('tool time limits', () => {
  it('rejects the run with AbortError promptly when aborted during a tool that ignores its signal', async () => {
    const model = new ScriptedModel([toolCall('stuck', {}), reply('never')]);
    const agent = new Agent({ name: 'a', model, tools: [stuckTool()] });
    const controller = new AbortController();
    const run = agent.run('go', { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const abortedAt = performance.now();
    controller.abort();
    await expect(run).rejects.toBeInstanceOf(AbortError);
    expect(performance.now() - abortedAt).toBeLessThan(5_000);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(model.calls).toHaveLength(1);
  });

  it('answers a stuck tool as a tool error after toolTimeoutMs, aborts its signal, and the run completes', async () => {
    const seen: (AbortSignal | undefined)[] = [];
    const model = new ScriptedModel([toolCall('stuck', {}), reply('The tool was too slow.')]);
    const agent = new Agent({ name: 'a', model, tools: [stuckTool(seen)], toolTimeoutMs: 30 });
    const result = await agent.run('go');
    expect(result.output).toBe('The tool was too slow.');
    expect(result.toolCalls[0]).toMatchObject({ isError: true });
    expect(model.calls[1]?.messages.at(-1)?.content).toBe('Error: Tool "stuck" did not finish within 30 ms.');
    expect(seen[0]?.aborted).toBe(true);
  });

  it("prefers a tool's own timeoutMs to the Agent's default", async () => {
    const quick: Tool = { ...stuckTool(), timeoutMs: 10 };
    const model = new ScriptedModel([toolCall('stuck', {}), reply('done')]);
    const agent = new Agent({ name: 'a', model, tools: [quick], toolTimeoutMs: 60_000 });
    const started = performance.now();
    await agent.run('go');
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(model.calls[1]?.messages.at(-1)?.content).toMatch(/within 10 ms/);
  });

  it('leaves a tool that finishes in time untouched, and no timer behind', async () => {
    const echo = tool({
      name: 'echo',
      description: 'Echoes.',
      parameters: z.object({ text: z.string() }),
      execute: ({ text }) => text,
    });
    const model = new ScriptedModel([toolCall('echo', { text: 'hi' }), reply('ok')]);
    const before = process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;
    await new Agent({ name: 'a', model, tools: [echo], toolTimeoutMs: 60_000 }).run('go');
    expect(model.calls[1]?.messages.at(-1)?.content).toBe('hi');
    const after = process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;
    expect(after).toBeLessThanOrEqual(before);
  });

  it('rejects a bad toolTimeoutMs or tool timeoutMs at construction', () => {
    const model = new ScriptedModel([]);
    expect(() => new Agent({ name: 'a', model, toolTimeoutMs: 0 })).toThrow(ConfigError);
    expect(() => new Agent({ name: 'a', model, toolTimeoutMs: 0 })).toThrow(/toolTimeoutMs/);
    const bad: Tool = { ...stuckTool(), timeoutMs: -1 };
    expect(() => new Agent({ name: 'a', model, tools: [bad] })).toThrow(/tool "stuck" timeoutMs/);
  });
});

describe('tool({ timeoutMs })', () => {
  it('takes a time limit of its own and rejects a bad one at definition', () => {
    const quick = tool({
      name: 'quick',
      description: '',
      parameters: z.object({}),
      execute: () => 'ok',
      timeoutMs: 50,
    });
    expect(quick.timeoutMs).toBe(50);
    expect(() =>
      tool({ name: 'bad', description: '', parameters: z.object({}), execute: () => 'ok', timeoutMs: 0 }),
    ).toThrow(ConfigError);
  });
});
