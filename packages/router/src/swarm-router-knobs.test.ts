import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Agent,
  BaseTopology,
  ConfigError,
  GuardrailTripwireError,
  type ModelRequest,
  type RunOptions,
  runMember,
  runTopology,
  type TopologyDescriptor,
  type TopologyResult,
} from '@swarm/core';
import { respond, ScriptedModel, toolCall } from '@swarm/core/testing';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { SwarmRouter } from './swarm-router.js';
import { withRules } from './with-rules.js';

const echo = (name: string, instructions?: string) =>
  new Agent({
    name,
    ...(instructions && { instructions }),
    model: new ScriptedModel([], {
      fallback: respond((r: ModelRequest) => `${name}:${r.messages.at(-1)?.content}`),
    }),
  });

/** A pipeline that runs its agents `loops` times, each on the previous output. */
class Looping extends BaseTopology {
  readonly name = 'looping';
  constructor(
    readonly type: string,
    readonly agents: readonly Agent<unknown>[],
    readonly loops: number,
  ) {
    super();
  }
  run(task: string | readonly string[], options: RunOptions = {}): Promise<TopologyResult> {
    return runTopology(this, { task }, options, async (context) => {
      let output = Array.isArray(task) ? task.join(' + ') : (task as string);
      for (let i = 0; i < this.loops; i++)
        for (const agent of this.agents) output = (await runMember(agent, output, context)).output;
      return { output };
    });
  }
}

/** A descriptor whose config loops under `key` (or does not loop at all without one). */
function looping(
  type: string,
  key?: string,
): TopologyDescriptor<Record<string, number | undefined>> & { configs: unknown[] } {
  const configs: unknown[] = [];
  return {
    type,
    description: `${type} stand-in.`,
    configSchema: z.strictObject(key ? { [key]: z.number().int().min(1).optional() } : {}) as z.ZodType<
      Record<string, number | undefined>
    >,
    configs,
    create(agents, config) {
      configs.push(config);
      return new Looping(type, agents, (key && config[key]) || 1);
    },
  };
}

describe('SwarmRouter knobs ported from swarms', () => {
  it('maps maxLoops to the key each type loops with, and a type’s own config wins', async () => {
    const seq = looping('SequentialWorkflow', 'maxLoops');
    const rr = looping('RoundRobin', 'rounds');
    const moa = looping('MixtureOfAgents', 'layers');
    const topologies = [seq, rr, moa];
    const agents = [echo('a')];
    new SwarmRouter({ agents, swarmType: 'SequentialWorkflow', topologies, maxLoops: 3 });
    new SwarmRouter({ agents, swarmType: 'RoundRobin', topologies, maxLoops: 3 });
    new SwarmRouter({ agents, swarmType: 'MixtureOfAgents', topologies, maxLoops: 3, config: { layers: 2 } });
    expect([seq.configs, rr.configs, moa.configs]).toEqual([
      [{ maxLoops: 3 }],
      [{ rounds: 3 }],
      [{ layers: 2 }],
    ]);

    const router = new SwarmRouter({ agents, swarmType: 'SequentialWorkflow', topologies, maxLoops: 2 });
    expect((await router.run('x')).output).toBe('a:a:x');
  });

  it('refuses maxLoops for a fixed type that does not loop, and a bad value', () => {
    const topologies = [looping('ConcurrentWorkflow')];
    const agents = [echo('a')];
    expect(
      () => new SwarmRouter({ agents, swarmType: 'ConcurrentWorkflow', topologies, maxLoops: 2 }),
    ).toThrow(/maxLoops: ConcurrentWorkflow does not loop/);
    expect(
      () => new SwarmRouter({ agents, swarmType: 'ConcurrentWorkflow', topologies, maxLoops: 0 }),
    ).toThrow(ConfigError);
  });

  it("gives the output as swarms' output types: the answer, the conversation, a list, a dict", async () => {
    const topologies = [looping('SequentialWorkflow', 'maxLoops')];
    const agents = [echo('a'), echo('b')];
    const run = (outputType: 'final' | 'all' | 'list' | 'dict') =>
      new SwarmRouter({ agents, swarmType: 'SequentialWorkflow', topologies, outputType }).run('go');

    expect((await run('final')).output).toBe('b:a:go');
    expect((await run('all')).output).toBe('user: go\na: a:go\nb: b:a:go');
    const list = await run('list');
    expect(list.formatted).toEqual(['user: go', 'a: a:go', 'b: b:a:go']);
    expect(JSON.parse(list.output)).toEqual(list.formatted);
    const dict = await run('dict');
    expect(dict.formatted).toEqual([
      { role: 'user', content: 'go' },
      { role: 'a', content: 'a:go' },
      { role: 'b', content: 'b:a:go' },
    ]);
    expect(
      () =>
        new SwarmRouter({ agents, swarmType: 'SequentialWorkflow', topologies, outputType: 'json' as 'all' }),
    ).toThrow(/outputType must be one of 'final', 'all', 'dict', 'list'/);
  });

  it('takes a z.object as outputType: the answer, written as a validated object by the routing model, in finalOutput', async () => {
    const topologies = [looping('SequentialWorkflow', 'maxLoops')];
    const writer = new ScriptedModel([], {
      fallback: respond((r: ModelRequest) => {
        if (typeof r.toolChoice === 'object') {
          // The first object misses a field: the repair loop asks again with the problem.
          const repaired = r.messages.some(
            (m) => /answer|invalid|required/i.test(String(m.content)) && m.role === 'tool',
          );
          const args = repaired ? { steps: 2, last: 'b' } : { steps: 2 };
          return { text: '', toolCalls: [{ name: r.toolChoice.name, arguments: args }] };
        }
        return `a:${r.messages.at(-1)?.content}`;
      }),
    });
    const agents = [new Agent({ name: 'a', model: writer }), echo('b')];
    const schema = z.object({ steps: z.number(), last: z.string() });
    const router = new SwarmRouter({
      agents,
      swarmType: 'SequentialWorkflow',
      topologies,
      outputType: schema,
    });
    expect(router.outputType).toBe('final');
    const result = await router.run('go');
    const typed: { steps: number; last: string } | undefined = result.finalOutput;
    expect(typed).toEqual({ steps: 2, last: 'b' });
    expect(JSON.parse(result.output)).toEqual(typed);
    const typing = writer.calls.filter((c) => c.metadata?.purpose === 'output');
    expect(typing).toHaveLength(2);
    expect(typing[0]!.messages.map((m) => m.content)).toContain('b:a:go');
    expect(
      () =>
        new SwarmRouter({
          agents,
          swarmType: 'SequentialWorkflow',
          topologies,
          outputType: z.string() as never,
        }),
    ).toThrow(/SwarmRouter: outputType must be one of 'final', 'all', 'dict', 'list', or a z\.object/);
  });

  it('runs a task list on a type that takes one, and points other types to batchedRun', async () => {
    const grid = looping('BatchedGridWorkflow');
    const agents = [echo('a')];
    const router = new SwarmRouter({
      agents,
      swarmType: 'BatchedGridWorkflow',
      topologies: [grid, looping('RoundRobin', 'rounds')],
    });
    const result = await router.runTasks(['one', 'two']);
    expect(result).toMatchObject({ output: 'a:one + two', swarmType: 'BatchedGridWorkflow' });

    const other = new SwarmRouter({
      agents,
      swarmType: 'RoundRobin',
      topologies: [grid, looping('RoundRobin', 'rounds')],
    });
    await expect(other.runTasks(['one'])).rejects.toThrow(/RoundRobin takes one task.*batchedRun/);
    await expect(router.runTasks([])).rejects.toThrow(/non-empty array of strings/);
  });

  it("adds the rules to copies of every agent's instructions, leaving the caller's agents unchanged", async () => {
    const writer = echo('writer', 'You write.');
    const topologies = [looping('SequentialWorkflow', 'maxLoops')];
    const router = new SwarmRouter({
      agents: [writer],
      swarmType: 'SequentialWorkflow',
      topologies,
      rules: 'Answer in one line.',
    });
    await router.run('go');
    expect(router.agents[0]!.instructions).toBe('You write.\n\nAnswer in one line.');
    expect(writer.instructions).toBe('You write.');
    expect((writer.model as ScriptedModel).calls[0]!.system).toBe('You write.\n\nAnswer in one line.');
    expect(
      () => new SwarmRouter({ agents: [writer], swarmType: 'SequentialWorkflow', topologies, rules: ' ' }),
    ).toThrow(/rules must be a non-empty string/);
  });

  it('keeps every other option of an agent it adds the rules to: its outputType and guardrails', async () => {
    const shaped = new Agent({
      name: 'shaped',
      model: new ScriptedModel([], { fallback: toolCall('final_output', { verdict: 'ok' }) }),
      outputType: z.object({ verdict: z.string() }),
      maxOutputRepairs: 0,
      outputGuardrails: [{ name: 'always', check: () => ({ tripwire: true }) }],
    });
    const router = new SwarmRouter({
      agents: [shaped],
      swarmType: 'SequentialWorkflow',
      topologies: [looping('SequentialWorkflow', 'maxLoops')],
      rules: 'Answer in one line.',
    });
    const copy = router.agents[0]!;
    expect(copy).not.toBe(shaped);
    // withRules keeps the agent's type for a caller who uses it directly.
    expectTypeOf(withRules([shaped], 'Answer in one line.')).toEqualTypeOf<Agent<{ verdict: string }>[]>();
    expect([copy.outputType, copy.maxOutputRepairs]).toEqual([shaped.outputType, 0]);
    expect(copy.instructions).toBe('Answer in one line.');
    await expect(copy.run('go')).rejects.toBeInstanceOf(GuardrailTripwireError);
  });

  it('saves each run’s conversation under autosave.dir, named by its run id', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'swarm-router-autosave-')), 'conversations');
    const router = new SwarmRouter({
      agents: [echo('a')],
      swarmType: 'SequentialWorkflow',
      topologies: [looping('SequentialWorkflow', 'maxLoops')],
      autosave: { dir },
    });
    const result = await router.run('go', { runId: 'run-1' });
    expect(result.savedTo).toBe(`${dir}/run-1.json`);
    expect(result.output).toBe('a:go');
    const saved = JSON.parse(readFileSync(result.savedTo!, 'utf8'));
    expect(saved.entries.map((e: { name?: string; content: string }) => [e.name, e.content])).toEqual([
      [undefined, 'go'],
      ['a', 'a:go'],
    ]);
    expect(
      () =>
        new SwarmRouter({
          agents: [echo('a')],
          swarmType: 'SequentialWorkflow',
          topologies: [looping('SequentialWorkflow')],
          autosave: {} as { dir: string },
        }),
    ).toThrow(/autosave must be \{ dir: string \}/);
  });
});
