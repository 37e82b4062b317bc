import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  ATTR_GEN_AI_RESPONSE_ID,
  ATTR_GEN_AI_RESPONSE_MODEL,
  ATTR_GEN_AI_SYSTEM,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS,
  GEN_AI_OPERATION_NAME_VALUE_CHAT,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
  GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
  GEN_AI_PROVIDER_NAME_VALUE_ANTHROPIC,
  GEN_AI_PROVIDER_NAME_VALUE_DEEPSEEK,
  GEN_AI_PROVIDER_NAME_VALUE_GCP_GEMINI,
  GEN_AI_PROVIDER_NAME_VALUE_GROQ,
  GEN_AI_PROVIDER_NAME_VALUE_MISTRAL_AI,
  GEN_AI_PROVIDER_NAME_VALUE_OPENAI,
  GEN_AI_PROVIDER_NAME_VALUE_X_AI,
} from '@opentelemetry/semantic-conventions/incubating';
import {
  AbortError,
  Agent,
  RunContext,
  type RunOptions,
  runTopology,
  type SwarmEvent,
  tool,
  type Usage,
} from '@swarm/core';
import { fail, Gate, respond, ScriptedModel, toolCall } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GenAI, operations, providerAndModel } from './gen-ai.js';
import { otelTracer } from './otel-tracer.js';
import { helpdesk, helpdeskModels, memoryTracer, spanTree } from './test-support.js';

const attr = (span: ReadableSpan, name: string) => span.attributes[name];

describe('otelTracer: a nested run as spans', () => {
  it('draws a forest used as a tool inside a handoff team as one span tree', async () => {
    const { tracer, spans } = memoryTracer();
    const tracing = otelTracer({ tracer });
    const events: SwarmEvent[] = [];
    await helpdesk(helpdeskModels()).run('I need my tax filing explained and a refund.', {
      onEvent: (e) => {
        events.push(e);
        tracing.onEvent(e);
      },
    });

    expect(spanTree(spans())).toEqual([
      'run Swarm',
      '  invoke_agent triage',
      '    chat triage-model',
      '    execute_tool ask_experts',
      '      run ForestSwarm',
      '        invoke_agent Tax Expert',
      '          chat tax-model',
      '    chat triage-model',
      '    execute_tool handoff',
      '  invoke_agent billing',
      '    chat billing-model',
    ]);
    expect(spans().every((s) => s.ended)).toBe(true);
    const [root] = spans().filter((s) => s.name === 'run Swarm');
    expect(root!.events.map((e) => e.name)).toContain('swarm.handoff');
  });

  it('gives each model call the gen_ai attributes of its own request and response in the trace', async () => {
    const { tracer, spans } = memoryTracer();
    const tracing = otelTracer({ tracer });
    const events: SwarmEvent[] = [];
    await helpdesk(helpdeskModels()).run('I need my tax filing explained and a refund.', {
      onEvent: (e) => {
        events.push(e);
        tracing.onEvent(e);
      },
    });

    const chats = spans().filter(
      (s) => attr(s, ATTR_GEN_AI_OPERATION_NAME) === GEN_AI_OPERATION_NAME_VALUE_CHAT,
    );
    const requests = events.filter((e) => e.type === 'model.request');
    expect(chats).toHaveLength(requests.length);
    for (const request of requests) {
      const response = events.find((e) => e.type === 'model.response' && e.callId === request.callId)!;
      const span = chats.find((s) => attr(s, 'swarm.call.id') === request.callId)!;
      const usage = response.usage as Usage;
      const model = String(request.model).replace('mock:', '');
      expect(span.attributes).toMatchObject({
        [ATTR_GEN_AI_PROVIDER_NAME]: 'mock',
        [ATTR_GEN_AI_REQUEST_MODEL]: model,
        [ATTR_GEN_AI_RESPONSE_MODEL]: model,
        [ATTR_GEN_AI_AGENT_NAME]: request.agent,
        [ATTR_GEN_AI_USAGE_INPUT_TOKENS]: usage.inputTokens,
        [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: usage.outputTokens,
        [ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS]: usage.cachedTokens,
        [ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS]: usage.reasoningTokens,
        [ATTR_GEN_AI_RESPONSE_FINISH_REASONS]: [
          response.finishReason === 'tool-calls' ? 'tool_calls' : 'stop',
        ],
      });
      // Scripted models report no response id, so none is made up.
      expect(span.attributes).not.toHaveProperty(ATTR_GEN_AI_RESPONSE_ID);
      expect(span.attributes).not.toHaveProperty(ATTR_GEN_AI_SYSTEM);
    }
    // The run spans hold the run totals, nested runs included.
    const end = events.find((e) => e.type === 'run.end' && e.parentRunId === undefined)!;
    const root = spans().find((s) => s.name === 'run Swarm')!;
    expect(attr(root, 'swarm.llm_calls')).toBe(end.llmCalls);
    expect(attr(root, 'swarm.llm_calls')).toBe(4);
    expect(attr(root, ATTR_GEN_AI_USAGE_INPUT_TOKENS)).toBe(30 + 20 + 30 + 50);
    expect(attr(root, ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS)).toBe(24 + 0 + 24 + 40);
    expect(attr(root, ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS)).toBe(0 + 9 + 0 + 0);
  });

  it('gives every span of a session, nested runs included, the session as gen_ai.conversation.id', async () => {
    const { tracer, spans } = memoryTracer();
    const team = helpdesk(helpdeskModels());
    await team.run('I need my tax filing explained and a refund.', {
      sessionId: 'session-42',
      ...otelTracer({ tracer }),
    });
    expect(spans().length).toBe(11);
    expect(spans().map((s) => [s.name, attr(s, ATTR_GEN_AI_CONVERSATION_ID)])).toEqual(
      spans().map((s) => [s.name, 'session-42']),
    );

    const alone = memoryTracer();
    await helpdesk(helpdeskModels()).run('Refund, please.', otelTracer({ tracer: alone.tracer }));
    expect(alone.spans().filter((s) => attr(s, ATTR_GEN_AI_CONVERSATION_ID) !== undefined)).toEqual([]);
  });
});

describe('otelTracer: the GenAI semantic conventions', () => {
  it('writes the attribute names of the current conventions, never the deprecated gen_ai.system', () => {
    expect(GenAI).toEqual({
      operationName: ATTR_GEN_AI_OPERATION_NAME,
      providerName: ATTR_GEN_AI_PROVIDER_NAME,
      requestModel: ATTR_GEN_AI_REQUEST_MODEL,
      responseModel: ATTR_GEN_AI_RESPONSE_MODEL,
      responseId: ATTR_GEN_AI_RESPONSE_ID,
      inputTokens: ATTR_GEN_AI_USAGE_INPUT_TOKENS,
      outputTokens: ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
      cacheReadInputTokens: ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
      reasoningOutputTokens: ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS,
      finishReasons: ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
      conversationId: ATTR_GEN_AI_CONVERSATION_ID,
      agentName: ATTR_GEN_AI_AGENT_NAME,
      toolName: ATTR_GEN_AI_TOOL_NAME,
      toolCallId: ATTR_GEN_AI_TOOL_CALL_ID,
      toolCallArguments: ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
      toolCallResult: ATTR_GEN_AI_TOOL_CALL_RESULT,
      errorType: ATTR_ERROR_TYPE,
    });
    expect(Object.values(GenAI)).not.toContain(ATTR_GEN_AI_SYSTEM);
    expect(operations).toEqual({
      model: GEN_AI_OPERATION_NAME_VALUE_CHAT,
      agent: GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
      tool: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
    });
  });

  it("names each model string's provider as the conventions do", () => {
    const provider = (id: string) => providerAndModel(id).provider;
    expect(
      [
        'openai:gpt-5.4',
        'anthropic:claude-opus-4-7',
        'google:gemini-3',
        'mistral:large',
        'xai:grok-5',
        'groq:llama',
        'deepseek:r2',
      ].map(provider),
    ).toEqual([
      GEN_AI_PROVIDER_NAME_VALUE_OPENAI,
      GEN_AI_PROVIDER_NAME_VALUE_ANTHROPIC,
      GEN_AI_PROVIDER_NAME_VALUE_GCP_GEMINI,
      GEN_AI_PROVIDER_NAME_VALUE_MISTRAL_AI,
      GEN_AI_PROVIDER_NAME_VALUE_X_AI,
      GEN_AI_PROVIDER_NAME_VALUE_GROQ,
      GEN_AI_PROVIDER_NAME_VALUE_DEEPSEEK,
    ]);
    // Providers the conventions do not list keep their own name; a model without one is _OTHER.
    expect(providerAndModel('ollama:llama3.2')).toEqual({ provider: 'ollama', model: 'llama3.2' });
    expect(providerAndModel('scripted')).toEqual({ provider: '_OTHER', model: 'scripted' });
  });
});

describe('otelTracer: the response id, the answering model and reasoning', () => {
  // A run's events with what a provider reported on each model.response: its response id, the
  // model that answered (a dated snapshot behind the alias asked for) and its reasoning.
  async function reportedEvents(): Promise<SwarmEvent[]> {
    const events: SwarmEvent[] = [];
    await helpdesk(helpdeskModels()).run('Refund, please.', { onEvent: (e) => events.push(e) });
    let n = 0;
    return events.map((e) =>
      e.type === 'model.response'
        ? {
            ...e,
            responseId: `chatcmpl-${++n}`,
            responseModel: `${providerAndModel(String(e.model)).model}-2026-03-05`,
            reasoning: { text: 'The customer wants a refund: route to billing.' },
          }
        : e,
    );
  }

  it('sets gen_ai.response.id and gen_ai.response.model from what the provider reported', async () => {
    const events = await reportedEvents();
    const { tracer, spans } = memoryTracer();
    const tracing = otelTracer({ tracer });
    for (const event of events) tracing.onEvent(event);
    const responses = events.filter((e) => e.type === 'model.response');
    expect(responses.length).toBeGreaterThan(0);
    for (const response of responses) {
      const span = spans().find((s) => attr(s, 'swarm.call.id') === response.callId)!;
      expect(attr(span, ATTR_GEN_AI_RESPONSE_ID)).toBe(response.responseId);
      expect(attr(span, ATTR_GEN_AI_RESPONSE_MODEL)).toBe(response.responseModel);
      expect(attr(span, ATTR_GEN_AI_REQUEST_MODEL)).toBe(providerAndModel(String(response.model)).model);
    }
  });

  it('records reasoning only with content capture on', async () => {
    const events = await reportedEvents();
    const quiet = memoryTracer();
    const quietTracing = otelTracer({ tracer: quiet.tracer });
    for (const event of events) quietTracing.onEvent(event);
    expect(JSON.stringify(quiet.spans().map((s) => s.attributes))).not.toContain('route to billing');

    const loud = memoryTracer();
    const loudTracing = otelTracer({ tracer: loud.tracer, recordContent: true });
    for (const event of events) loudTracing.onEvent(event);
    const chats = loud.spans().filter((s) => attr(s, ATTR_GEN_AI_OPERATION_NAME) === 'chat');
    expect(chats.length).toBeGreaterThan(0);
    for (const chat of chats) {
      expect(attr(chat, 'swarm.response.reasoning')).toBe('The customer wants a refund: route to billing.');
    }
  });
});

describe('otelTracer: a saved trace', () => {
  it('turns the events of a finished run, read back from JSON, into the same spans', async () => {
    const live = memoryTracer();
    const events: SwarmEvent[] = [];
    const tracing = otelTracer({ tracer: live.tracer });
    await helpdesk(helpdeskModels()).run('Refund, please.', {
      onEvent: (e) => {
        events.push(e);
        tracing.onEvent(e);
      },
    });

    const later = memoryTracer();
    const replayed = otelTracer({ tracer: later.tracer });
    for (const event of JSON.parse(JSON.stringify(events)) as SwarmEvent[]) replayed.onEvent(event);

    expect(spanTree(later.spans())).toEqual(spanTree(live.spans()));
    const times = (spans: readonly ReadableSpan[]) => spans.map((s) => [s.name, s.startTime, s.endTime]);
    expect(times(later.spans())).toEqual(times(live.spans()));
  });
});

describe('otelTracer: errors, contents, concurrency', () => {
  it('records a failed run on every span it ends, with the SwarmError code', async () => {
    const { tracer, spans } = memoryTracer();
    const models = { ...helpdeskModels(), triage: new ScriptedModel([fail(new Error('upstream 503'))]) };
    await expect(helpdesk(models).run('Help.', otelTracer({ tracer, recordContent: true }))).rejects.toThrow(
      'upstream 503',
    );

    expect(spanTree(spans())).toEqual(['run Swarm', '  invoke_agent triage', '    chat scripted']);
    for (const span of spans()) {
      expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'upstream 503' });
      expect(span.attributes).toMatchObject({ [ATTR_ERROR_TYPE]: 'MODEL', 'swarm.error.code': 'MODEL' });
      expect(span.events[0]).toMatchObject({
        name: 'exception',
        attributes: { 'exception.type': 'MODEL', 'exception.message': 'upstream 503' },
      });
    }
  });

  it('with contents off, no error message (which may quote the task) reaches a span status or exception', async () => {
    const { tracer, spans } = memoryTracer();
    const secretTask = 'Explain the tax filing of Acme Corp';
    const failing = new ScriptedModel([fail(new Error(`cannot answer: ${secretTask}`))]);
    await expect(
      helpdesk({ ...helpdeskModels(), triage: failing }).run(secretTask, otelTracer({ tracer })),
    ).rejects.toThrow();
    const everything = JSON.stringify(
      spans().map((s) => ({ attributes: s.attributes, status: s.status, events: s.events })),
    );
    expect(everything).not.toContain('Acme');
    for (const span of spans()) {
      expect(span.status).toEqual({
        code: SpanStatusCode.ERROR,
        message: 'MODEL (message not recorded: recordContent is off)',
      });
      expect(span.events[0]).toMatchObject({ name: 'exception', attributes: { 'exception.type': 'MODEL' } });
    }
  });

  it('ends the tool span of a bare Agent aborted while the tool runs', async () => {
    const { tracer, spans } = memoryTracer();
    const controller = new AbortController();
    const started = new Gate();
    const wait = tool({
      name: 'wait',
      description: 'Waits until aborted.',
      parameters: z.object({}),
      execute: (_args, ctx) =>
        new Promise((_resolve, reject) => {
          ctx.signal?.addEventListener('abort', () => reject(new AbortError()));
          started.open();
        }),
    });
    const agent = new Agent({
      name: 'waiter',
      model: new ScriptedModel([toolCall('wait', {})]),
      tools: [wait],
    });
    const running = agent.run('Wait.', { signal: controller.signal, ...otelTracer({ tracer }) });
    await started.wait();
    controller.abort();
    await expect(running).rejects.toBeInstanceOf(AbortError);

    expect(spanTree(spans())).toEqual(['invoke_agent waiter', '  chat scripted', '  execute_tool wait']);
    expect(spans().every((s) => s.ended)).toBe(true);
    const toolSpan = spans().find((s) => s.name === 'execute_tool wait')!;
    expect(toolSpan.attributes['swarm.unfinished']).toBe(true);
  });

  it('ends the spans an aborted run leaves open, marked unfinished', async () => {
    const { tracer, spans } = memoryTracer();
    const controller = new AbortController();
    const started = new Gate();
    const wait = tool({
      name: 'wait',
      description: 'Waits until aborted.',
      parameters: z.object({}),
      execute: (_args, ctx) =>
        new Promise((_resolve, reject) => {
          ctx.signal?.addEventListener('abort', () => reject(new AbortError()));
          started.open();
        }),
    });
    const agent = new Agent({
      name: 'waiter',
      model: new ScriptedModel([toolCall('wait', {})]),
      tools: [wait],
    });
    const running = soloRun(agent, { signal: controller.signal, ...otelTracer({ tracer }) });
    await started.wait();
    controller.abort();
    await expect(running).rejects.toBeInstanceOf(AbortError);

    expect(spanTree(spans())).toEqual([
      'run Solo',
      '  invoke_agent waiter',
      '    chat scripted',
      '    execute_tool wait',
    ]);
    expect(spans().every((s) => s.ended)).toBe(true);
    const toolSpan = spans().find((s) => s.name === 'execute_tool wait')!;
    expect(toolSpan.attributes['swarm.unfinished']).toBe(true);
    expect(toolSpan.status.code).toBe(SpanStatusCode.ERROR);
    expect(spans().find((s) => s.name === 'run Solo')!.attributes[ATTR_ERROR_TYPE]).toBe('ABORTED');
  });

  it('leaves contents out by default and records them when asked', async () => {
    const run = async (recordContent?: boolean) => {
      const { tracer, spans } = memoryTracer();
      await helpdesk(helpdeskModels()).run('I need my tax filing explained and a refund.', {
        ...otelTracer({ tracer, ...(recordContent !== undefined && { recordContent }) }),
      });
      return JSON.stringify(spans().map((s) => s.attributes));
    };
    const quiet = await run();
    expect(quiet).not.toMatch(/tax filing|Form 1120|refund|corporation/i);

    const loud = JSON.parse(`[${(await run(true)).slice(1, -1)}]`) as Record<string, unknown>[];
    expect(loud).toContainEqual(
      expect.objectContaining({ 'swarm.task': 'I need my tax filing explained and a refund.' }),
    );
    expect(loud).toContainEqual(
      expect.objectContaining({
        [ATTR_GEN_AI_TOOL_NAME]: 'ask_experts',
        [ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]: JSON.stringify({
          task: 'How do I file the tax return of my corporation?',
        }),
        [ATTR_GEN_AI_TOOL_CALL_RESULT]: 'File Form 1120 by the 15th day of the 4th month.',
      }),
    );
  });

  it('pairs concurrent calls of one agent by callId, whichever finishes first', async () => {
    const { tracer, spans } = memoryTracer();
    const gate = new Gate();
    // The one-message call waits; the two-message call answers first. Each reports its own usage.
    const model = new ScriptedModel([], {
      fallback: respond(async (request) => {
        if (request.messages.length === 1) await gate.wait();
        return { text: 'ok', usage: { inputTokens: request.messages.length * 100 } };
      }),
    });
    const context = new RunContext({ topology: 'Pair', ...otelTracer({ tracer }) });
    context.emit({ type: 'run.start' });
    const metadata = { agent: 'judge', purpose: 'score' };
    const one = context.callModel(model, { messages: [{ role: 'user', content: 'a' }], metadata });
    const two = context.callModel(model, {
      messages: [
        { role: 'user', content: 'a' },
        { role: 'user', content: 'b' },
      ],
      metadata,
    });
    await two;
    gate.open();
    await one;
    context.emit({ type: 'run.end' });

    const chats = spans().filter((s) => s.name.startsWith('chat'));
    expect(
      chats.map((s) => [
        s.attributes['swarm.request.messages'],
        s.attributes[ATTR_GEN_AI_USAGE_INPUT_TOKENS],
      ]),
    ).toEqual([
      [2, 200],
      [1, 100],
    ]);
  });
});

// A one-agent topology: enough to show a run that throws with a tool still running.
function soloRun(agent: Agent, options: RunOptions) {
  return runTopology({ type: 'Solo', name: 'solo' }, {}, options, async (context) => {
    const result = await agent.run('Wait.', { context });
    return { output: result.output };
  });
}
