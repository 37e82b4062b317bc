import { ConfigError, type ModelRequest } from '@swarm/core';
import { ScriptedModel } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HeavySwarm } from './heavy-swarm.js';
import { HierarchicalSwarm } from './hierarchical-swarm.js';
import { headModel, steadyWorker } from './hierarchy.fixture.js';
import { PlannerWorkerSwarm } from './planner-worker-swarm.js';
import { forced } from './worst-case.fixture.js';

const verdict = z.object({ decision: z.enum(['enter', 'wait']), reasons: z.array(z.string()).min(1) });

const oneOrder = {
  plan: 'Research, then decide.',
  orders: [{ id: 'o1', agentName: 'research', task: 'Find the facts.' }],
  done: true,
};

describe('HierarchicalSwarm with a schema as outputType', () => {
  it("types the director's final answer as a validated object, repairing an invalid one", async () => {
    const director = headModel({
      director: [oneOrder],
      final: [
        { decision: 'maybe', reasons: [] },
        { decision: 'enter', reasons: ['demand grows'] },
      ],
    });
    const swarm = new HierarchicalSwarm({
      director,
      agents: [steadyWorker('research', 'demand grows 30% a year').agent],
      outputType: verdict,
    });

    const result = await swarm.run('Should we enter the EV charger market?');

    const typed: { decision: 'enter' | 'wait'; reasons: string[] } | undefined = result.finalOutput;
    expect(typed).toEqual({ decision: 'enter', reasons: ['demand grows'] });
    expect(JSON.parse(result.output)).toEqual(typed);
    const finals = director.calls.filter((c) => c.metadata?.purpose === 'final');
    expect(finals).toHaveLength(2);
    expect(finals[0]!.toolChoice).toEqual({ name: 'final_output' });
    // The repair call tells the director what was wrong with its first object.
    expect(JSON.stringify(finals[1]!.messages)).toMatch(/decision/);
    expect(swarm.outputType).toBe('final');
  });

  it('still takes a conversation format by name, with no finalOutput', async () => {
    const director = headModel({ director: [oneOrder], final: ['Enter the market.'] });
    const result = await new HierarchicalSwarm({
      director,
      agents: [steadyWorker('research', 'facts').agent],
      outputType: 'all',
    }).run('Should we enter?');
    expect(result.output).toContain('Enter the market.');
    expect(result.output).toContain('facts');
    expect(result.finalOutput).toBeUndefined();
  });

  it('refuses an outputType that is neither a format nor a z.object, naming the option', () => {
    for (const outputType of ['summary', z.string(), { type: 'object' }]) {
      expect(
        () =>
          new HierarchicalSwarm({
            director: headModel({}),
            agents: [steadyWorker('research').agent],
            outputType: outputType as never,
          }),
      ).toThrow(ConfigError);
    }
    expect(
      () =>
        new HierarchicalSwarm({
          director: headModel({}),
          agents: [steadyWorker('research').agent],
          outputType: 'summary' as never,
        }),
    ).toThrow(/HierarchicalSwarm: outputType must be one of .*or a z\.object/);
  });
});

describe('PlannerWorkerSwarm with outputType', () => {
  it('writes the synthesis as a validated object', async () => {
    const planner = headModel({
      planner: [{ tasks: [{ id: 't1', task: 'Check the demand.', priority: 5 }] }],
      judge: [{ isComplete: true, quality: 9, gaps: [], followUp: [] }],
      synthesis: [{ decision: 'wait', reasons: ['demand is flat'] }],
    });
    const result = await new PlannerWorkerSwarm({
      planner,
      workers: [steadyWorker('analyst', 'demand is flat').agent],
      outputType: verdict,
    }).run('Should we enter?');
    expect(result.finalOutput).toEqual({ decision: 'wait', reasons: ['demand is flat'] });
    expect(JSON.parse(result.output)).toEqual(result.finalOutput);
  });

  it('refuses an outputType that is not a z.object', () => {
    expect(
      () =>
        new PlannerWorkerSwarm({
          planner: headModel({}),
          workers: [steadyWorker('analyst').agent],
          outputType: z.string() as never,
        }),
    ).toThrow(ConfigError);
  });
});

describe('HeavySwarm with outputType', () => {
  it("types only the last loop's synthesis; earlier ones stay prose to improve on", async () => {
    const model = new ScriptedModel([], {
      fallback: {
        kind: 'respond',
        fn: (request: ModelRequest) => {
          const purpose = request.metadata?.purpose;
          if (purpose === 'questions') {
            const schema = request.tools![0]!.parameters as {
              properties: { questions: { properties: object } };
            };
            const roles = Object.keys(schema.properties.questions.properties);
            return forced(request, { questions: Object.fromEntries(roles.map((r) => [r, `${r}?`])) });
          }
          if (purpose === 'synthesis') {
            return request.tools?.length
              ? forced(request, { decision: 'enter', reasons: ['every role agrees'] })
              : 'a first synthesis';
          }
          return `${request.metadata?.agent} answer`;
        },
      },
    });
    const result = await new HeavySwarm({ model, maxLoops: 2, outputType: verdict }).run('Should we enter?');
    expect(result.loops[0]!.synthesis).toBe('a first synthesis');
    expect(result.finalOutput).toEqual({ decision: 'enter', reasons: ['every role agrees'] });
    expect(JSON.parse(result.output)).toEqual(result.finalOutput);
  });
});
