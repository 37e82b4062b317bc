import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { SwarmEvent } from '../contracts/events.js';
import { tool } from '../primitives/tool.js';
import { reply, ScriptedModel, toolCall } from '../testing/scripted-model.js';
import { Agent } from './agent.js';

const add = tool({
  name: 'add',
  description: 'Adds two numbers.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

describe('agent.stream', () => {
  it("streams one agent's run as every topology's stream does: its events, then its result", async () => {
    const model = new ScriptedModel([toolCall('add', { a: 2, b: 3 }), reply('It is 5.')]);
    const agent = new Agent({ name: 'calc', model, tools: [add] });
    const heard: string[] = [];

    const stream = agent.stream('What is 2 + 3?', { onEvent: (e) => heard.push(e.type) });
    const seen: SwarmEvent[] = [];
    for await (const event of stream) seen.push(event);
    const result = await stream.result;

    expect(result.output).toBe('It is 5.');
    expect(result.llmCalls).toBe(2);
    const types = seen.map((e) => e.type);
    expect(types[0]).toBe('agent.start');
    expect(types.at(-1)).toBe('agent.end');
    expect(types).toContain('tool.result');
    expect(types.filter((t) => t === 'model.response')).toHaveLength(2);
    // The caller's own listener still hears every event.
    expect(heard).toEqual(types);
  });

  it('ends its iteration with the run error after the events before it', async () => {
    const model = new ScriptedModel([]);
    const agent = new Agent({ name: 'calc', model });
    const stream = agent.stream('hi');
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const event of stream) seen.push(event.type);
      })(),
    ).rejects.toThrow();
    await expect(stream.result).rejects.toThrow();
    expect(seen).toContain('agent.error');
  });
});
