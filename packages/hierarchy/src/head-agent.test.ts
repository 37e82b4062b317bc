import {
  Agent,
  ConfigError,
  GuardrailTripwireError,
  type ModelRequest,
  openaiModel,
  type SwarmEvent,
  tool,
} from '@swarm/core';
import { mockProviderServer, object, reply, respond, ScriptedModel, toolCall } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HeavySwarm } from './heavy-swarm.js';
import { HierarchicalSwarm } from './hierarchical-swarm.js';
import { headModel, steadyWorker } from './hierarchy.fixture.js';
import { PlannerWorkerSwarm } from './planner-worker-swarm.js';
import { forced } from './worst-case.fixture.js';

// Heads (director, planner, judge, questioner, synthesizer) given as Agents run as Agents: through
// agent.run, nested in the topology's run, with their tools, guardrails and outputType.

const oneOrder = {
  plan: 'Ask research.',
  orders: [{ id: 'o1', agentName: 'research', task: 'Find the facts.' }],
  done: true,
};
const onePlan = { tasks: [{ id: 't1', task: 'Find the facts.', priority: 5 }] };
const complete = { isComplete: true, quality: 9, gaps: [], followUp: [] };
const decision = z.object({ decision: z.enum(['enter', 'wait']), reasons: z.array(z.string()).min(1) });

// The names of the tools a request offered.
const toolsOf = (request: ModelRequest | undefined) => (request?.tools ?? []).map((t) => t.name);

describe('a head Agent runs its own tool loop', () => {
  it('a director calls its tool before giving orders, and sees the result in its next call', async () => {
    const lookups: string[] = [];
    const roster = tool({
      name: 'roster',
      description: 'Who on a team is free.',
      parameters: z.object({ team: z.string() }),
      execute: ({ team }) => {
        lookups.push(team);
        return `${team}: research is free`;
      },
    });
    const model = new ScriptedModel(
      [
        toolCall('roster', { team: 'analysts' }),
        respond((request) => forced(request, oneOrder)),
        reply('Final: research found the facts.'),
      ],
      { id: 'director' },
    );
    const director = new Agent({ name: 'boss', instructions: 'Direct.', model, tools: [roster] });
    const research = steadyWorker('research', 'the facts');

    const result = await new HierarchicalSwarm({ director, agents: [research.agent] }).run('Enter?');

    expect(lookups).toEqual(['analysts']);
    const [first, second] = model.calls;
    expect(first!.metadata).toEqual({ agent: 'boss', purpose: 'director' });
    expect(toolsOf(first)).toEqual(['roster', 'final_output']);
    expect(second!.messages).toContainEqual(
      expect.objectContaining({ role: 'tool', content: 'analysts: research is free' }),
    );
    expect(result.loops[0]!.orders.map((o) => [o.id, o.status, o.output])).toEqual([
      ['o1', 'done', 'the facts'],
    ]);
    expect(result.output).toBe('Final: research found the facts.');
    expect(model.calls.map((c) => c.metadata?.purpose)).toEqual(['director', 'director', 'final']);
  });
});

describe("a head Agent's guardrails hold", () => {
  it("a planner's input guardrail that trips fails the run with the guardrail's error, before any work", async () => {
    const worker = steadyWorker('w');
    const planner = new Agent({
      name: 'lead',
      model: headModel({ planner: [onePlan], judge: [complete], synthesis: ['done'] }),
      inputGuardrails: [{ name: 'no-payroll', check: (value) => ({ tripwire: value.includes('payroll') }) }],
    });
    const swarm = new PlannerWorkerSwarm({ planner, workers: [worker.agent] });

    const failure = await swarm.run('Summarise the payroll of every employee.').then(
      () => undefined,
      (error: unknown) => error,
    );

    expect(failure).toBeInstanceOf(GuardrailTripwireError);
    expect(failure).toMatchObject({ guardrail: 'no-payroll', kind: 'input' });
    expect(worker.model.calls).toHaveLength(0);
  });

  it("a director's output guardrail that trips on its final answer fails the run", async () => {
    const director = new Agent({
      name: 'boss',
      model: headModel({ director: [oneOrder], final: ['The secret is 42.'] }),
      outputGuardrails: [{ name: 'no-secrets', check: (value) => ({ tripwire: value.includes('secret') }) }],
    });
    const swarm = new HierarchicalSwarm({ director, agents: [steadyWorker('research').agent] });

    await expect(swarm.run('Tell me.')).rejects.toMatchObject({
      name: 'GuardrailTripwireError',
      guardrail: 'no-secrets',
      kind: 'output',
    });
  });
});

describe("a head Agent's own outputType types the answer it writes", () => {
  it("a planner (who also judges and synthesizes) with its own outputType: finalOutput is the validated object, its plan and verdict still typed by the swarm's schemas", async () => {
    const model = headModel({
      planner: [onePlan],
      judge: [complete],
      synthesis: [
        { decision: 'maybe', reasons: [] },
        { decision: 'enter', reasons: ['demand grows'] },
      ],
    });
    const planner = new Agent({ name: 'lead', model, outputType: decision });
    // The swarm's type parameter is the head's output type (it cannot be inferred from the head).
    const swarm = new PlannerWorkerSwarm<z.infer<typeof decision>>({
      planner,
      workers: [steadyWorker('w', 'demand grows').agent],
    });

    const result = await swarm.run('Should we enter the EV charger market?');

    const typed: { decision: 'enter' | 'wait'; reasons: string[] } | undefined = result.finalOutput;
    expect(typed).toEqual({ decision: 'enter', reasons: ['demand grows'] });
    expect(JSON.parse(result.output)).toEqual(typed);
    const byPurpose = (purpose: string) => model.calls.filter((c) => c.metadata?.purpose === purpose);
    expect(byPurpose('synthesis')).toHaveLength(2);
    // Each run is held to its own schema: the plan's, the verdict's, then the agent's outputType.
    const parameters = (c: ModelRequest) => Object.keys(c.tools![0]!.parameters.properties as object);
    expect(parameters(byPurpose('planner')[0]!)).toEqual(['tasks']);
    expect(parameters(byPurpose('judge')[0]!)).toContain('isComplete');
    expect(parameters(byPurpose('synthesis')[0]!)).toEqual(['decision', 'reasons']);
    expect(result.cycles[0]!.tasks[0]).toMatchObject({ id: 't1', status: 'done' });
  });

  it("a HeavySwarm synthesizer with its own outputType types the last synthesis; earlier loops' are prose", async () => {
    const model = headModel({
      questions: [{ questions: { a: 'qa1', b: 'qb1' } }, { questions: { a: 'qa2', b: 'qb2' } }],
      synthesis: ['a first draft', { decision: 'wait', reasons: ['too early'] }],
    });
    const synthesizer = new Agent({ name: 'captain', model, outputType: decision });
    const swarm = new HeavySwarm({
      agents: [steadyWorker('a').agent, steadyWorker('b').agent],
      questioner: model,
      synthesizer,
      maxLoops: 2,
    });

    const result = await swarm.run('Enter now?');

    expect(result.finalOutput).toEqual({ decision: 'wait', reasons: ['too early'] });
    expect(result.loops.map((l) => l.synthesis)).toEqual([
      'a first draft',
      JSON.stringify({ decision: 'wait', reasons: ['too early'] }),
    ]);
    const syntheses = model.calls.filter((c) => c.metadata?.purpose === 'synthesis');
    expect(syntheses.map(toolsOf)).toEqual([[], ['final_output']]);
  });

  it('a director with its own outputType types the final answer', async () => {
    const director = new Agent({
      name: 'boss',
      model: headModel({ director: [oneOrder], final: [{ decision: 'enter', reasons: ['facts'] }] }),
      outputType: decision,
    });
    const result = await new HierarchicalSwarm({ director, agents: [steadyWorker('research').agent] }).run(
      'Enter?',
    );
    expect(result.finalOutput).toEqual({ decision: 'enter', reasons: ['facts'] });
  });

  it('refuses an outputType that would type nothing, or a second one for the same answer', () => {
    const model = headModel({});
    const typed = new Agent({ name: 'typed', model, outputType: decision });
    const workers = [steadyWorker('w').agent];
    // A judge beside the planner never writes the answer.
    expect(() => new PlannerWorkerSwarm({ planner: model, judge: typed, workers })).toThrow(ConfigError);
    expect(() => new PlannerWorkerSwarm({ planner: model, judge: typed, workers })).toThrow(
      /the judge Agent "typed" has its own outputType, but the judge only makes the topology's structured decisions/,
    );
    // A planner beside another synthesizer neither.
    expect(() => new PlannerWorkerSwarm({ planner: typed, synthesizer: model, workers })).toThrow(
      /the planner Agent "typed" has its own outputType/,
    );
    expect(() => new HeavySwarm({ agents: workers, questioner: typed, synthesizer: model })).toThrow(
      /the questioner Agent "typed" has its own outputType/,
    );
    // The swarm's outputType and the synthesizer's own, different: the answer is typed once.
    const other = z.object({ verdict: z.string() });
    expect(() => new PlannerWorkerSwarm({ planner: typed, workers, outputType: other })).toThrow(
      /both outputType and the synthesizer Agent "typed"'s own outputType type the answer/,
    );
    expect(() => new HierarchicalSwarm({ director: typed, agents: workers, outputType: other })).toThrow(
      ConfigError,
    );
    // The same schema in both places is one type.
    expect(() => new PlannerWorkerSwarm({ planner: typed, workers, outputType: decision })).not.toThrow();
  });
});

describe("a head Agent's calls are the run's", () => {
  it("the director's tool loop and its guardrail agent's calls count in the swarm's llmCalls and usage", async () => {
    const checker = new ScriptedModel([], {
      id: 'checker',
      fallback: object({ tripwire: false }),
      usage: { inputTokens: 100, outputTokens: 1 },
    });
    const guard = new Agent({
      name: 'guard',
      model: checker,
      outputType: z.object({ tripwire: z.boolean() }),
    });
    const note = tool({
      name: 'note',
      description: 'Notes.',
      parameters: z.object({}),
      execute: () => 'noted',
    });
    const model = new ScriptedModel(
      [toolCall('note', {}), respond((request) => forced(request, oneOrder)), reply('Final.')],
      { id: 'director' },
    );
    const director = new Agent({ name: 'boss', model, tools: [note], inputGuardrails: [guard] });
    const research = steadyWorker('research');
    const events: SwarmEvent[] = [];

    const result = await new HierarchicalSwarm({ director, agents: [research.agent] }).run('Enter?', {
      onEvent: (e) => events.push(e),
    });

    // The director: 2 turns of its plan (tool, then orders) and its final answer; the guardrail
    // agent checks each of the director's 2 runs; the worker answers once.
    expect(model.calls).toHaveLength(3);
    expect(checker.calls).toHaveLength(2);
    expect(research.model.calls).toHaveLength(1);
    expect(result.llmCalls).toBe(6);
    expect(result.usage.inputTokens).toBe(4 * 10 + 2 * 100);
    expect(result.usage.outputTokens).toBe(4 * 5 + 2 * 1);
    expect(events.filter((e) => e.type === 'guardrail.pass')).toHaveLength(2);
    const end = events.find((e) => e.type === 'run.end' && e.parentRunId === undefined);
    expect(end).toMatchObject({ llmCalls: 6 });
  });
});

describe('a head on a model with native JSON output', () => {
  it("the director's spec is its run's JSON output (response_format), repaired when it names an unknown agent", async () => {
    const server = await mockProviderServer();
    try {
      const unknown = { ...oneOrder, orders: [{ id: 'o1', agentName: 'nobody', task: 'Find the facts.' }] };
      server.enqueue(
        { text: JSON.stringify(unknown) },
        { text: JSON.stringify(oneOrder) },
        { text: 'Final.' },
      );
      const director = openaiModel('gpt-5.4', { apiKey: 'k', baseURL: server.openaiBaseURL, maxRetries: 0 });
      const research = steadyWorker('research', 'the facts');

      const result = await new HierarchicalSwarm({ director, agents: [research.agent] }).run('Enter?');

      expect(result.loops[0]!.orders.map((o) => [o.agentName, o.status])).toEqual([['research', 'done']]);
      expect(result.output).toBe('Final.');
      const bodies = server.requests.map(
        (r) => r.body as { response_format?: { json_schema?: { name: string } } },
      );
      expect(bodies.map((b) => b.response_format?.json_schema?.name)).toEqual([
        'final_output',
        'final_output',
        undefined,
      ]);
      // The repair turn tells the director which agent does not exist.
      expect(JSON.stringify(server.requests[1]!.body)).toMatch(/nobody/);
      expect(result.llmCalls).toBe(4);
    } finally {
      await server.close();
    }
  });
});
