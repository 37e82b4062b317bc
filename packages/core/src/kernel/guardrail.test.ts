import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import { runMember } from '../composition/member.js';
import { BaseTopology, type TopologyResult } from '../composition/topology.js';
import { runTopology } from '../composition/topology-run.js';
import type { SwarmEvent } from '../contracts/events.js';
import type { Model, ModelRequest, ModelResponse } from '../contracts/model.js';
import { tool } from '../primitives/tool.js';
import { openaiModel } from '../providers/openai.js';
import { Gate } from '../testing/gate.js';
import { mockProviderServer } from '../testing/mock-provider-server.js';
import { reply, ScriptedModel, toolCall } from '../testing/scripted-model.js';
import { ConfigError, GuardrailTripwireError } from './errors.js';
import type { Guardrail } from './guardrail.js';
import type { RunOptions } from './run-context.js';

/** A model whose calls wait until the test answers them, recording whether their signal fired. */
class HeldModel implements Model {
  readonly id = 'held';
  readonly calls: { request: ModelRequest; aborted: () => boolean; answer: (r: ModelResponse) => void }[] =
    [];
  readonly started = new Gate();

  generate(request: ModelRequest): Promise<ModelResponse> {
    return new Promise((resolve, reject) => {
      const signal = request.signal;
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      this.calls.push({ request, aborted: () => signal?.aborted === true, answer: resolve });
      void this.started.wait();
    });
  }
}

const usage = { inputTokens: 10, outputTokens: 5, cachedTokens: 0, reasoningTokens: 0, totalTokens: 15 };

/** A guardrail that answers when the test opens its gate. */
function heldGuardrail(name: string, tripwire: boolean, gate: Gate): Guardrail {
  return {
    name,
    check: async (value) => {
      await gate.wait();
      return { tripwire, info: { saw: value } };
    },
  };
}

const blockSecrets: Guardrail = {
  name: 'no-secrets',
  check: (value) => ({ tripwire: value.includes('password'), info: { reason: 'mentions a password' } }),
};

/** A one-step topology: its agent answers the task. */
class Echo extends BaseTopology {
  readonly type = 'Echo';
  constructor(
    readonly name: string,
    readonly agent: Agent,
  ) {
    super();
  }
  run(task: string, options: RunOptions = {}): Promise<TopologyResult> {
    return runTopology(this, { task }, options, async (context) => ({
      output: (await runMember(this.agent, task, context)).output,
    }));
  }
}

describe('input guardrails', () => {
  it('run beside the first model call and cancel it when they trip: no second call starts', async () => {
    const model = new HeldModel();
    const gate = new Gate();
    const agent = new Agent({ name: 'a', model, inputGuardrails: [heldGuardrail('topic', true, gate)] });
    const events: SwarmEvent[] = [];
    const running = agent.run('Tell me a secret.', { onEvent: (e) => events.push(e) });
    const outcome = running.catch((e: unknown) => e);
    // The first call started while the guardrail was still checking.
    while (model.calls.length === 0) await new Promise((r) => setImmediate(r));
    expect(model.calls[0]!.aborted()).toBe(false);
    gate.open();
    const error = await outcome;
    expect(error).toBeInstanceOf(GuardrailTripwireError);
    expect(error).toMatchObject({
      code: 'GUARDRAIL_TRIPWIRE',
      guardrail: 'topic',
      kind: 'input',
      info: { saw: 'Tell me a secret.' },
    });
    expect(model.calls[0]!.aborted()).toBe(true);
    expect(model.calls).toHaveLength(1);
    expect(events.find((e) => e.type === 'guardrail.trip')).toMatchObject({
      guardrail: 'topic',
      kind: 'input',
    });
  });

  it('cancel the first call on the wire when they trip (the real openai SDK against a hanging server)', async () => {
    const server = await mockProviderServer();
    try {
      server.enqueue({ fault: 'hang' });
      const model = openaiModel('gpt-5.4', { apiKey: 'k', baseURL: server.openaiBaseURL, maxRetries: 0 });
      const gate = new Gate();
      const agent = new Agent({ name: 'a', model, inputGuardrails: [heldGuardrail('topic', true, gate)] });
      const outcome = agent.run('Off-topic question').catch((e: unknown) => e);
      while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
      expect(server.openResponses).toBe(1);
      gate.open();
      expect(await outcome).toBeInstanceOf(GuardrailTripwireError);
      // The SDK let go of the hanging response: the first call was cancelled, and no other was made.
      while (server.openResponses > 0) await new Promise((r) => setTimeout(r, 5));
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('hold the tools and the second call until they pass, then the run goes on', async () => {
    let executed = 0;
    const lookup = tool({
      name: 'lookup',
      description: 'Looks up.',
      parameters: z.object({ q: z.string() }),
      execute: () => {
        executed += 1;
        return 'found';
      },
    });
    const model = new HeldModel();
    const gate = new Gate();
    const agent = new Agent({
      name: 'a',
      model,
      tools: [lookup],
      inputGuardrails: [heldGuardrail('slow-check', false, gate)],
    });
    const events: SwarmEvent[] = [];
    const running = agent.run('Find it.', { onEvent: (e) => events.push(e) });
    while (model.calls.length === 0) await new Promise((r) => setImmediate(r));
    model.calls[0]!.answer({
      text: '',
      toolCalls: [{ id: 'c1', name: 'lookup', arguments: { q: 'x' } }],
      usage,
      finishReason: 'tool-calls',
      modelId: 'held',
    });
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(executed).toBe(0);
    expect(model.calls).toHaveLength(1);
    gate.open();
    while (model.calls.length < 2) await new Promise((r) => setImmediate(r));
    expect(executed).toBe(1);
    model.calls[1]!.answer({
      text: 'Found it.',
      toolCalls: [],
      usage,
      finishReason: 'stop',
      modelId: 'held',
    });
    const result = await running;
    expect(result.output).toBe('Found it.');
    expect(events.filter((e) => e.type.startsWith('guardrail.'))).toMatchObject([
      { type: 'guardrail.pass', guardrail: 'slow-check', kind: 'input' },
    ]);
  });

  it('take an Agent whose outputType has a tripwire, its calls counted in the run', async () => {
    const judge = new Agent({
      name: 'judge',
      model: new ScriptedModel([toolCall('final_output', { tripwire: true, reason: 'homework' })]),
      outputType: z.object({ tripwire: z.boolean(), reason: z.string() }),
    });
    const model = new ScriptedModel([reply('The answer is 4.')]);
    const agent = new Agent({ name: 'tutor', model, inputGuardrails: [judge] });
    const error = await agent.run('Do my homework: 2+2?').catch((e: unknown) => e);
    expect(error).toMatchObject({ guardrail: 'judge', info: { tripwire: true, reason: 'homework' } });
  });

  it('reject a guardrail that is neither { name, check } nor an Agent with a tripwire', () => {
    const model = new ScriptedModel([]);
    expect(() => new Agent({ name: 'a', model, inputGuardrails: [{ name: 'x' } as never] })).toThrow(
      ConfigError,
    );
    const plain = new Agent({ name: 'plain', model });
    expect(() => new Agent({ name: 'a', model, outputGuardrails: [plain] })).toThrow(/tripwire/);
  });
});

describe('output guardrails', () => {
  it('end the run with GuardrailTripwireError when the answer trips them', async () => {
    const agent = new Agent({
      name: 'a',
      model: new ScriptedModel([reply('Your password is hunter2.')]),
      outputGuardrails: [blockSecrets],
    });
    const error = await agent.run('What is my password?').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'GUARDRAIL_TRIPWIRE', guardrail: 'no-secrets', kind: 'output' });
  });

  it('let a clean answer through, with guardrail.pass in the trace', async () => {
    const events: SwarmEvent[] = [];
    const agent = new Agent({
      name: 'a',
      model: new ScriptedModel([reply('Use a password manager.')]),
      inputGuardrails: [blockSecrets],
    });
    const result = await agent.run('How do I keep secrets safe?', { onEvent: (e) => events.push(e) });
    expect(result.output).toBe('Use a password manager.');
    expect(events.filter((e) => e.type === 'guardrail.pass')).toHaveLength(1);
  });
});

describe('guardrails on topologies', () => {
  it("trip on a topology's own option and on a run's option alike", async () => {
    const model = new ScriptedModel([]);
    const own = new Echo('echo', new Agent({ name: 'e', model })).withGuardrails({
      inputGuardrails: [blockSecrets],
    });
    await expect(own.run('my password is 1234')).rejects.toMatchObject({ guardrail: 'no-secrets' });
    const plain = new Echo('echo', new Agent({ name: 'e', model }));
    await expect(
      plain.run('my password is 1234', { inputGuardrails: [blockSecrets] }),
    ).rejects.toBeInstanceOf(GuardrailTripwireError);
    expect(model.calls.length).toBeLessThanOrEqual(2);
  });

  it('end the whole run when a topology nested in an asTool run trips, not just the tool call', async () => {
    const inner = new Echo(
      'vault',
      new Agent({ name: 'keeper', model: new ScriptedModel([reply('1234')]) }),
    ).withGuardrails({
      inputGuardrails: [{ name: 'vault-guard', check: () => ({ tripwire: true, info: 'no vault access' }) }],
    });
    const outerModel = new ScriptedModel([
      toolCall('vault', { task: 'read the vault' }),
      reply('unreachable'),
    ]);
    const outer = new Agent({ name: 'lead', model: outerModel, tools: [inner.asTool()] });
    const events: SwarmEvent[] = [];
    const error = await outer
      .run('Get the code.', { onEvent: (e) => events.push(e) })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'GUARDRAIL_TRIPWIRE',
      guardrail: 'vault-guard',
      info: 'no vault access',
    });
    expect(outerModel.calls).toHaveLength(1);
    const trip = events.find((e) => e.type === 'guardrail.trip');
    expect(trip?.parentRunId).toBe(events[0]?.runId);
  });
});
