import { describe, expect, it } from 'vitest';
import type { HeavySwarm } from './heavy-swarm.js';
import { heavySwarmDescriptor } from './heavy-swarm-descriptor.js';
import { forced, modelOf, toolAgents, worstWorker } from './worst-case.fixture.js';

describe('heavySwarmDescriptor', () => {
  it("by default (as swarms) makes every agent a specialist, led by a separate captain on the first agent's model", async () => {
    const model = modelOf((request) =>
      request.metadata?.purpose === 'questions'
        ? forced(request, { questions: { risk: 'Risks?', upside: 'Upside?' } })
        : `${request.metadata?.agent} says`,
    );
    const [risk, upside] = toolAgents(['risk', 'upside'], model, 1);
    const swarm = heavySwarmDescriptor.create([risk!, upside!], {}) as HeavySwarm;
    const result = await swarm.run('Expand to Japan?');
    expect(swarm.roles.map((r) => r.member)).toEqual([risk, upside]);
    const heads = model.calls.filter((c) => c.metadata?.agent !== 'risk' && c.metadata?.agent !== 'upside');
    expect(heads).toHaveLength(2);
    expect(model.calls.filter((c) => c.metadata?.agent === 'risk')).toHaveLength(1);
    expect(result.output).toBe(`${heads[1]!.metadata?.agent} says`);
  });

  it('lets roles.captain name an agent, who then asks and synthesizes and is not a specialist', async () => {
    const model = modelOf((request) =>
      request.metadata?.purpose === 'questions'
        ? forced(request, { questions: { risk: 'Risks?', upside: 'Upside?' } })
        : `${request.metadata?.agent} says`,
    );
    const [captain, risk, upside] = toolAgents(['captain', 'risk', 'upside'], model, 1);
    const swarm = heavySwarmDescriptor.create([captain!, risk!, upside!], { roles: { captain: 'captain' } });
    const result = await swarm.run('Expand to Japan?');
    expect(swarm.type).toBe('HeavySwarm');
    expect(model.calls.map((c) => c.metadata?.agent)).toEqual(['captain', 'risk', 'upside', 'captain']);
    expect(result.output).toBe('captain says');
  });

  it('validates its config', () => {
    const schema = heavySwarmDescriptor.configSchema!;
    expect(schema.safeParse({ maxLoops: 2, timeoutMs: 1000 }).success).toBe(true);
    expect(schema.safeParse({ roles: 'grok' }).success).toBe(false);
  });

  it('has a worst case equal to the calls of a run that takes the most expensive path', async () => {
    const config = { roles: { captain: 'captain' }, maxLoops: 2, maxRepairs: 1 };
    const maxTurns = 3;
    let questionCalls = 0;
    const rolePath = worstWorker(1, maxTurns);
    // The captain is an Agent with a tool: its synthesis may call it on every turn but the last.
    const synthesisPath = worstWorker(1, maxTurns);
    const model = modelOf((request) => {
      const purpose = request.metadata?.purpose;
      if (purpose === 'questions') {
        questionCalls += 1;
        // Each question run: the captain's tool, an invalid set (repaired), then a valid one.
        if (questionCalls % 3 === 1) return { text: '', toolCalls: [{ name: 'noop', arguments: {} }] };
        return forced(
          request,
          questionCalls % 3 === 0 ? { questions: { a: `qa${questionCalls}`, b: `qb${questionCalls}` } } : {},
        );
      }
      if (purpose === 'agent') return rolePath(request);
      return synthesisPath(request);
    });
    const agents = toolAgents(['captain', 'a', 'b'], model, maxTurns);
    const worst = heavySwarmDescriptor.worstCase!(agents, config);

    const result = await heavySwarmDescriptor.create(agents, config).run('task');

    // 2 loops x (3 question turns + 2 roles x 3 turns + 3 synthesis turns): the captain is an Agent
    // with a tool, so each of its runs may take all its turns
    expect(worst).toEqual({ maxCalls: 2 * (3 + 6 + 3) });
    expect(model.calls).toHaveLength(worst.maxCalls!);
    expect(result.llmCalls).toBe(worst.maxCalls);
  });
});
