import { describe, expect, it } from 'vitest';
import type { PlannerWorkerSwarm } from './planner-worker-swarm.js';
import { plannerWorkerSwarmDescriptor } from './planner-worker-swarm-descriptor.js';
import { forced, modelOf, toolAgents, worstWorker } from './worst-case.fixture.js';

describe('plannerWorkerSwarmDescriptor', () => {
  it("by default (as swarms) makes every agent a worker, planned and judged by a separate planner on the first agent's model", async () => {
    const model = modelOf((request) => {
      const purpose = request.metadata?.purpose;
      if (purpose === 'planner') return forced(request, { tasks: [{ id: 't1', task: 'x', priority: 5 }] });
      if (purpose === 'judge')
        return forced(request, { isComplete: true, quality: 8, gaps: [], followUp: [] });
      return `${request.metadata?.agent} answer`;
    });
    const [a, b] = toolAgents(['a', 'b'], model, 1);
    const swarm = plannerWorkerSwarmDescriptor.create([a!, b!], {}) as PlannerWorkerSwarm;
    await swarm.run('goal');
    expect(swarm.workers).toEqual([a, b]);
    const planning = model.calls.filter((c) => c.metadata?.purpose === 'planner');
    expect(planning.map((c) => c.metadata?.agent)).toEqual(['planner']);
  });

  it('lets roles.planner name an agent, who then plans and judges and does not work', async () => {
    const model = modelOf((request) => {
      const purpose = request.metadata?.purpose;
      if (purpose === 'planner') return forced(request, { tasks: [{ id: 't1', task: 'x', priority: 5 }] });
      if (purpose === 'judge')
        return forced(request, { isComplete: true, quality: 8, gaps: [], followUp: [] });
      return `${request.metadata?.agent} answer`;
    });
    const [lead, w] = toolAgents(['lead', 'w'], model, 1);
    const swarm = plannerWorkerSwarmDescriptor.create([lead!, w!], { roles: { planner: 'lead' } });
    const result = await swarm.run('goal');
    expect(swarm.type).toBe('PlannerWorkerSwarm');
    expect((swarm as PlannerWorkerSwarm).workers).toEqual([w]);
    expect(model.calls.map((c) => c.metadata?.agent)).toEqual(['lead', 'w', 'lead', 'lead']);
    expect(result.output).toBe('lead answer');
  });

  it('validates its config', () => {
    const schema = plannerWorkerSwarmDescriptor.configSchema!;
    expect(schema.safeParse({ taskTimeoutMs: 5000, maxRetries: 0 }).success).toBe(true);
    expect(schema.safeParse({ taskTimeoutMs: -1 }).success).toBe(false);
  });

  it('has a worst case equal to the calls of a run that takes the most expensive path', async () => {
    const config = { maxLoops: 2, maxTasks: 2, maxRetries: 1, maxRepairs: 1 };
    const maxTurns = 2;
    let plans = 0;
    let verdicts = 0;
    const workerPath = worstWorker(config.maxRetries + 1, maxTurns);
    const model = modelOf((request) => {
      const purpose = request.metadata?.purpose;
      if (purpose === 'planner') {
        plans += 1;
        const valid = plans % 2 === 0;
        return forced(request, {
          tasks: [
            { id: `a${plans}`, task: `a of plan ${plans}`, priority: 5 },
            {
              id: `b${plans}`,
              task: `b of plan ${plans}`,
              priority: 5,
              dependsOn: [valid ? `a${plans}` : 'nope'],
            },
          ],
        });
      }
      if (purpose === 'judge') {
        verdicts += 1;
        return forced(
          request,
          verdicts % 2 === 0 ? { isComplete: false, quality: 1, gaps: [], followUp: [] } : {},
        );
      }
      if (purpose === 'agent') return workerPath(request);
      return 'synthesis';
    });
    const agents = toolAgents(['lead', 'w1', 'w2'], model, maxTurns);
    const worst = plannerWorkerSwarmDescriptor.worstCase!(agents, config);

    const result = await plannerWorkerSwarmDescriptor.create(agents, config).run('goal');

    // 2 cycles x (2 planner calls + 2 tasks x 2 attempts x 2 turns + 2 judge calls) + 1 synthesis
    expect(worst).toEqual({ maxCalls: 2 * (2 + 8 + 2) + 1 });
    expect(model.calls).toHaveLength(worst.maxCalls!);
    expect(result.llmCalls).toBe(worst.maxCalls);
  });
});
