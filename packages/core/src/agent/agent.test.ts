import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { SwarmEvent } from '../contracts/events.js';
import type { Model, ModelResponse } from '../contracts/model.js';
import { ConfigError, GuardrailTripwireError, MaxTurnsExceededError, ModelError } from '../kernel/errors.js';
import { RunContext } from '../kernel/run-context.js';
import { tool } from '../primitives/tool.js';
import { Gate } from '../testing/gate.js';
import { reply, ScriptedModel, toolCall, toolCalls } from '../testing/scripted-model.js';
import { Agent } from './agent.js';

const add = tool({
  name: 'add',
  description: 'Add two numbers.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

describe('Agent', () => {
  it('answers with the model text when no tool is called', async () => {
    const model = new ScriptedModel([reply('Hello there.')]);
    const agent = new Agent({ name: 'greeter', instructions: 'Be brief.', model });
    const result = await agent.run('Hi');
    expect(result.output).toBe('Hello there.');
    expect(result.llmCalls).toBe(1);
    expect(model.lastCall?.system).toBe('Be brief.');
    expect(model.lastCall?.messages).toEqual([{ role: 'user', content: 'Hi' }]);
    model.assertComplete();
  });

  it('runs a tool and sends its result back to the model', async () => {
    const model = new ScriptedModel([toolCall('add', { a: 2, b: 3 }, { id: 'c1' }), reply('It is 5.')]);
    const agent = new Agent({ name: 'calc', model, tools: [add] });
    const result = await agent.run('2+3?');
    expect(result.output).toBe('It is 5.');
    expect(result.toolCalls).toEqual([
      { call: { id: 'c1', name: 'add', arguments: { a: 2, b: 3 } }, result: '5', isError: false },
    ]);
    expect(model.calls[1]?.messages.at(-1)).toEqual({ role: 'tool', toolCallId: 'c1', content: '5' });
    expect(model.calls[0]?.tools?.[0]?.parameters).toMatchObject({ type: 'object', required: ['a', 'b'] });
    expect(result.usage.totalTokens).toBe(30);
  });

  it('runs two tools of one turn concurrently', async () => {
    const gate = new Gate();
    const slow = (name: string) =>
      tool({
        name,
        description: name,
        parameters: z.object({}),
        execute: async () => {
          await gate.wait();
          return name;
        },
      });
    const model = new ScriptedModel([
      toolCalls({ name: 'first', arguments: {} }, { name: 'second', arguments: {} }),
      reply('done'),
    ]);
    const agent = new Agent({ name: 'par', model, tools: [slow('first'), slow('second')] });
    const running = agent.run('go');
    // Both tools are waiting on the gate at once: neither waited for the other to finish.
    await gate.until(2);
    gate.open();
    const result = await running;
    expect(result.toolCalls.map((r) => r.result)).toEqual(['first', 'second']);
  });

  it('sends invalid tool arguments back to the model and goes on', async () => {
    const model = new ScriptedModel([
      toolCall('add', { a: 'two', b: 3 }),
      toolCall('add', { a: 2, b: 3 }),
      reply('5'),
    ]);
    const result = await new Agent({ name: 'calc', model, tools: [add] }).run('2+3?');
    expect(result.output).toBe('5');
    expect(result.toolCalls[0]?.isError).toBe(true);
    expect(model.calls[1]?.messages.at(-1)?.content).toMatch(/^Invalid arguments: a: .*expected number/i);
  });

  it('turns a throwing tool into a tool result and goes on', async () => {
    const broken = tool({
      name: 'broken',
      description: 'Always fails.',
      parameters: z.object({}),
      execute: () => {
        throw new Error('database offline');
      },
    });
    const model = new ScriptedModel([toolCall('broken', {}), reply('Sorry, the database is offline.')]);
    const result = await new Agent({ name: 'a', model, tools: [broken] }).run('query');
    expect(result.output).toBe('Sorry, the database is offline.');
    expect(model.calls[1]?.messages.at(-1)?.content).toBe('Error: database offline');
  });

  it('answers an unknown tool name as an error result', async () => {
    const model = new ScriptedModel([toolCall('nope', {}), reply('ok')]);
    await new Agent({ name: 'a', model, tools: [add] }).run('x');
    expect(model.calls[1]?.messages.at(-1)?.content).toMatch(/no tool named "nope"/);
  });

  it('stops a loop at maxTurns with MaxTurnsExceededError', async () => {
    const model = new ScriptedModel([], { fallback: toolCall('add', { a: 1, b: 1 }) });
    const agent = new Agent({ name: 'looper', model, tools: [add], maxTurns: 3 });
    await expect(agent.run('loop')).rejects.toBeInstanceOf(MaxTurnsExceededError);
    expect(model.calls).toHaveLength(3);
  });

  it('ends the turn at a run-ending tool and answers the calls after it as not executed', async () => {
    const executed: string[] = [];
    const stop = tool({
      name: 'stop',
      description: 'End.',
      parameters: z.object({ why: z.string() }),
      endsRun: true,
      execute: ({ why }) => {
        executed.push(`stop:${why}`);
        return { why };
      },
    });
    const model = new ScriptedModel([
      toolCalls(
        { name: 'stop', arguments: { why: 'first' } },
        { name: 'stop', arguments: { why: 'second' } },
      ),
    ]);
    const events: SwarmEvent[] = [];
    const result = await new Agent({ name: 'a', model, tools: [stop] }).run('x', {
      onEvent: (e) => events.push(e),
    });
    expect(executed).toEqual(['stop:first']);
    expect(result.endedBy?.value).toEqual({ why: 'first' });
    expect(result.toolCalls[1]?.skipped).toBe(true);
    expect(result.toolCalls[1]?.result).toMatch(/^Not executed/);
    expect(events.filter((e) => e.type === 'tool.result').map((e) => e.skipped)).toEqual([undefined, true]);
  });

  it('says why later calls were skipped when the run-ending call itself failed validation', async () => {
    const stop = tool({
      name: 'stop',
      description: 'End.',
      parameters: z.object({ why: z.string() }),
      endsRun: true,
      execute: ({ why }) => why,
    });
    const model = new ScriptedModel([
      toolCalls({ name: 'stop', arguments: { why: 1 } }, { name: 'stop', arguments: { why: 'second' } }),
      reply('gave up'),
    ]);
    const result = await new Agent({ name: 'a', model, tools: [stop] }).run('x');
    expect(result.endedBy).toBeUndefined();
    expect(result.output).toBe('gave up');
    expect(result.toolCalls[1]?.result).toBe(
      'Not executed: stop came first in this response and failed; call again if it is still needed.',
    );
  });

  it('emits agent, model and tool events in order', async () => {
    const events: SwarmEvent[] = [];
    const model = new ScriptedModel([toolCall('add', { a: 1, b: 2 }), reply('3')]);
    await new Agent({ name: 'calc', model, tools: [add] }).run('1+2', { onEvent: (e) => events.push(e) });
    expect(events.map((e) => e.type)).toEqual([
      'agent.start',
      'model.request',
      'model.response',
      'tool.call',
      'tool.result',
      'model.request',
      'model.response',
      'agent.end',
    ]);
    expect(new Set(events.map((e) => e.runId)).size).toBe(1);
  });

  it('clones with the given options changed and every other one kept, the original untouched', async () => {
    const trips = { name: 'no-refunds', check: (value: string) => ({ tripwire: value.includes('refund') }) };
    const original = new Agent({
      name: 'a',
      instructions: 'Be brief.',
      model: new ScriptedModel([], { fallback: toolCall('final_output', { n: 3 }) }),
      tools: [add],
      maxTurns: 3,
      outputType: z.object({ n: z.number() }),
      maxOutputRepairs: 1,
      inputGuardrails: [trips],
    });
    const copy = original.clone({ instructions: 'Be very brief.' });
    expect(copy).not.toBe(original);
    expect([copy.instructions, original.instructions]).toEqual(['Be very brief.', 'Be brief.']);
    expect([copy.name, copy.model, copy.tools, copy.maxTurns]).toEqual(['a', original.model, [add], 3]);
    expect([copy.outputType, copy.maxOutputRepairs]).toEqual([original.outputType, 1]);
    expect((await copy.run('count')).finalOutput).toEqual({ n: 3 });
    await expect(copy.run('a refund please')).rejects.toBeInstanceOf(GuardrailTripwireError);
    expect(() => original.clone({ maxTurns: 0 })).toThrow(ConfigError);
  });

  it('rejects bad options at construction', () => {
    const model = new ScriptedModel();
    expect(() => new Agent({ name: '', model })).toThrow(ConfigError);
    expect(() => new Agent({ name: 'a', model, maxTurns: 0 })).toThrow(/maxTurns/);
    expect(() => new Agent({ name: 'a', model, tools: [add, add] })).toThrow(/two tools/);
    expect(() => new Agent({ name: 'a', model, maxTokens: 0 })).toThrow(/maxTokens must be an integer >= 1/);
    expect(() => new Agent({ name: 'a', model, temperature: 3 })).toThrow(
      /temperature must be between 0 and 2/,
    );
  });

  it('refuses a run tool whose name one of the agent tools already has', async () => {
    const model = new ScriptedModel([reply('never')]);
    const agent = new Agent({ name: 'a', model, tools: [add] });
    await expect(agent.run('x', { tools: [add] })).rejects.toThrow(/two tools are named "add"/);
    expect(model.calls).toHaveLength(0);
  });

  it('forces a tool only until the model has called one, so the run can answer', async () => {
    const model = new ScriptedModel([toolCall('add', { a: 1, b: 2 }), reply('3')]);
    const result = await new Agent({ name: 'a', model, tools: [add] }).run('1+2', {
      toolChoice: 'required',
    });
    expect(result.output).toBe('3');
    expect(model.calls.map((c) => c.toolChoice)).toEqual(['required', 'auto']);
  });

  it('runs a stateless loop: a second run does not see the first', async () => {
    const model = new ScriptedModel([reply('one'), reply('two')]);
    const agent = new Agent({ name: 'a', model });
    await agent.run('first');
    await agent.run('second');
    expect(model.calls[1]?.messages).toEqual([{ role: 'user', content: 'second' }]);
  });

  it('generates a validated object with its own model and instructions', async () => {
    const model = new ScriptedModel([toolCall('respond', { city: 'Paris' })]);
    const agent = new Agent({ name: 'geo', instructions: 'You know geography.', model });
    const { object } = await agent.generateObject(z.object({ city: z.string() }), 'Capital of France?');
    expect(object).toEqual({ city: 'Paris' });
    expect(model.lastCall?.system).toBe('You know geography.');
    expect(model.lastCall?.toolChoice).toEqual({ name: 'respond' });
  });
});

// A run nobody listens to takes a shorter path to the model (no promise around the model's own);
// it must end exactly as a listened run does: same answer or error, same calls and tokens counted.
describe('Agent runs with and without a listener end alike', () => {
  type Outcome = { output?: string; error?: string; code?: string; calls: number; tokens: number };
  const usage = { inputTokens: 1, outputTokens: 1, cachedTokens: 0, reasoningTokens: 0, totalTokens: 2 };
  const calling: ModelResponse = {
    text: '',
    toolCalls: [{ id: 'c1', name: 'add', arguments: { a: 1, b: 2 } }],
    usage,
    finishReason: 'tool-calls',
    modelId: 'm',
  };
  const failing = (id: string, fail: (call: number) => boolean, sync = false): Model => {
    let calls = 0;
    return {
      id,
      generate: (() => {
        if (fail(calls++)) {
          if (sync) throw new Error(`${id} failed`);
          return Promise.reject(new Error(`${id} failed`));
        }
        return Promise.resolve(calling);
      }) as Model['generate'],
    };
  };
  const scripted = () => new ScriptedModel([toolCall('add', { a: 1, b: 2 }), reply('3')]);

  const scenarios: Record<string, { model: () => Model; abort?: boolean; budget?: number }> = {
    'a tool turn, then the answer': { model: scripted },
    'a model that rejects with a plain Error at the first call': {
      model: () => failing('first', () => true),
    },
    'a model that throws synchronously': { model: () => failing('sync', () => true, true) },
    'a model that rejects at the second call': { model: () => failing('second', (call) => call === 1) },
    'a budget of one call spent by a tool turn': { model: scripted, budget: 1 },
    'a run aborted before it starts': { model: scripted, abort: true },
  };

  for (const [name, scenario] of Object.entries(scenarios)) {
    it(name, async () => {
      const outcomes: Outcome[] = [];
      for (const listened of [false, true]) {
        const controller = new AbortController();
        if (scenario.abort) controller.abort();
        const context = new RunContext({
          name: 'a',
          signal: controller.signal,
          ...(scenario.budget !== undefined && { budget: { maxCalls: scenario.budget } }),
          ...(listened && { onEvent: () => {} }),
        });
        const agent = new Agent({ name: 'a', model: scenario.model(), tools: [add] });
        const totals = () => ({ calls: context.llmCalls, tokens: context.usage.totalTokens });
        try {
          const result = await agent.run('1+2?', { context });
          outcomes.push({ output: result.output, ...totals() });
        } catch (error) {
          const { name: type, message, code } = error as Error & { code?: string };
          outcomes.push({ error: `${type}: ${message}`, code, ...totals() });
        }
      }
      expect(outcomes[0]).toEqual(outcomes[1]);
    });
  }

  for (const [name, scenario] of Object.entries(scenarios)) {
    if (scenario.budget !== undefined) continue; // a budget needs a context
    it(`${name}, with no context given (a run with no options gets one only when it calls a tool)`, async () => {
      const outcomes: (Outcome & { seenByTool: unknown[] })[] = [];
      for (const listened of [false, true]) {
        const controller = new AbortController();
        if (scenario.abort) controller.abort();
        const seenByTool: unknown[] = [];
        const spy = tool({
          name: 'add',
          description: 'Add two numbers.',
          parameters: z.object({ a: z.number(), b: z.number() }),
          execute: ({ a, b }, { run }) => {
            seenByTool.push({ calls: run.llmCalls, tokens: run.usage.totalTokens });
            return a + b;
          },
        });
        const agent = new Agent({ name: 'a', model: scenario.model(), tools: [spy] });
        const options = {
          ...(scenario.abort && { signal: controller.signal }),
          ...(listened && { onEvent: () => {} }),
        };
        try {
          const result = await agent.run('1+2?', options);
          outcomes.push({
            output: result.output,
            calls: result.llmCalls,
            tokens: result.usage.totalTokens,
            seenByTool,
          });
        } catch (error) {
          const { name: type, message, code } = error as Error & { code?: string };
          outcomes.push({ error: `${type}: ${message}`, code, calls: 0, tokens: 0, seenByTool });
        }
      }
      expect(outcomes[0]).toEqual(outcomes[1]);
    });
  }

  it('takes the shorter path only for a run nobody listens to: the answers and totals above are its', async () => {
    const context = new RunContext({ name: 'a' });
    const model = failing('first', () => true);
    const error = await new Agent({ name: 'a', model })
      .run('hi', { context })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ message: 'first failed', provider: 'first' });
    expect(context.llmCalls).toBe(1);
  });
});
