import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import {
  Agent,
  ConfigError,
  errorMessage,
  ModelError,
  type RunStream,
  runStream,
  type SwarmEvent,
  ToolError,
  type TopologyResult,
  tool,
} from '@swarm/core';
import { fail, reply, ScriptedModel, toolCall } from '@swarm/core/testing';
import { SequentialWorkflow } from '@swarm/workflow';
import { parseJsonEventStream, readUIMessageStream, type UIMessageChunk, uiMessageChunkSchema } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { aiSdkModel } from './ai-sdk-model.js';
import { RunChunks } from './run-chunks.js';
import { finish, streamed, textParts, usage } from './test-support.js';
import type { SwarmUIMessage, SwarmUIMessageChunk } from './ui-data-types.js';
import { toUIMessageStream, toUIMessageStreamResponse } from './ui-message-stream.js';

/** Reads a UI message stream the way `useChat` does: every snapshot of the message, and the errors. */
async function readMessage(stream: ReadableStream<UIMessageChunk>) {
  const snapshots: SwarmUIMessage[] = [];
  const errors: string[] = [];
  for await (const message of readUIMessageStream<SwarmUIMessage>({
    stream,
    onError: (error) => errors.push(errorMessage(error)),
  })) {
    snapshots.push(message);
  }
  return { message: snapshots.at(-1)!, snapshots, errors };
}

async function chunksOf(stream: ReadableStream<SwarmUIMessageChunk>): Promise<SwarmUIMessageChunk[]> {
  const chunks: SwarmUIMessageChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

type Part = SwarmUIMessage['parts'][number];
const dataOf = <T extends Part['type']>(message: SwarmUIMessage, type: T) =>
  message.parts.filter((p): p is Extract<Part, { type: T }> => p.type === type);

/**
 * A researcher who asks a fact checker (an agent called as a tool, so a nested run) before it
 * answers, then a writer on an AI SDK model: a two-step SequentialWorkflow.
 */
function paperclipTeam() {
  const checker = new Agent({
    name: 'checker',
    model: new ScriptedModel([reply('Verified: patented in 1899.')]),
  });
  const researcher = new Agent({
    name: 'researcher',
    model: new ScriptedModel([
      toolCall('checker', { task: 'When was the paperclip patented?' }, { id: 'call_r1' }),
      reply('The paperclip was patented in 1899.'),
    ]),
    tools: [checker.asTool()],
  });
  const writerModel = new MockLanguageModelV4({
    provider: 'mistral.chat',
    doStream: streamed(
      textParts(
        ['Paperclips: ', 'patented 1899, ', 'still useful.'],
        [{ type: 'finish', finishReason: finish('stop'), usage: usage(40, 9) }],
      ),
    ),
  });
  const writer = new Agent({ name: 'writer', model: aiSdkModel(writerModel) });
  return new SequentialWorkflow({ agents: [researcher, writer] });
}

describe('toUIMessageStream, read back with the AI SDK readUIMessageStream', () => {
  it('shows a multi-agent run as it happens: runs, agent turns, tool calls, nested runs, texts, the answer', async () => {
    const run = paperclipTeam().stream('Write a line about paperclips.');
    const { message, snapshots, errors } = await readMessage(toUIMessageStream(run));
    const result = await run.result;

    expect(errors).toEqual([]);
    expect(message.parts.map((p) => p.type)).toEqual([
      'data-swarm-run',
      'data-swarm-agent', // researcher
      'dynamic-tool', // researcher asks checker
      'data-swarm-agent', // checker, nested under the tool call
      'text', // checker
      'text', // researcher
      'data-swarm-agent', // writer
      'text', // writer
      'data-swarm-result',
    ]);

    const [root] = dataOf(message, 'data-swarm-run');
    const rootRunId = root!.data.runId;
    expect(root!.data).toEqual({
      runId: rootRunId,
      path: ['SequentialWorkflow'],
      topology: 'SequentialWorkflow',
      status: 'done',
      output: 'Paperclips: patented 1899, still useful.',
    });

    const agents = dataOf(message, 'data-swarm-agent').map((p) => p.data);
    expect(agents).toEqual([
      { agent: 'researcher', runId: rootRunId, path: ['SequentialWorkflow'], status: 'done' },
      {
        agent: 'checker',
        runId: expect.any(String),
        path: ['SequentialWorkflow', 'checker'],
        parentRunId: rootRunId,
        parentToolCallId: 'call_r1',
        status: 'done',
      },
      { agent: 'writer', runId: rootRunId, path: ['SequentialWorkflow'], status: 'done' },
    ]);
    expect(agents[1]!.runId).not.toBe(rootRunId);

    const [call] = dataOf(message, 'dynamic-tool');
    expect(call).toMatchObject({
      toolName: 'checker',
      toolCallId: 'call_r1',
      state: 'output-available',
      input: { task: 'When was the paperclip patented?' },
      output: 'Verified: patented in 1899.',
      toolMetadata: {
        agent: 'researcher',
        runId: rootRunId,
        path: ['SequentialWorkflow'],
        toolCallId: 'call_r1',
      },
    });

    const texts = dataOf(message, 'text').map((p) => ({
      text: p.text,
      state: p.state,
      agent: p.providerMetadata?.swarm?.agent,
      path: p.providerMetadata?.swarm?.path,
    }));
    expect(texts).toEqual([
      {
        text: 'Verified: patented in 1899.',
        state: 'done',
        agent: 'checker',
        path: ['SequentialWorkflow', 'checker'],
      },
      {
        text: 'The paperclip was patented in 1899.',
        state: 'done',
        agent: 'researcher',
        path: ['SequentialWorkflow'],
      },
      {
        text: 'Paperclips: patented 1899, still useful.',
        state: 'done',
        agent: 'writer',
        path: ['SequentialWorkflow'],
      },
    ]);

    const [answer] = dataOf(message, 'data-swarm-result');
    // A workflow's finalOutput is its last step's answer: the text, as no outputType was given.
    expect(answer!.data).toEqual({
      output: result.output,
      finalOutput: result.output,
      llmCalls: 4,
      usage: result.usage,
    });
    expect(result.llmCalls).toBe(4);

    // As it happens: the writer's text was seen half written, and the researcher running.
    const writerTexts = snapshots.map((s) => dataOf(s, 'text')[2]).filter((p) => p !== undefined);
    expect([...new Set(writerTexts.map((p) => `${p.state}: ${p.text}`))]).toEqual([
      'streaming: ',
      'streaming: Paperclips: ',
      'streaming: Paperclips: patented 1899, ',
      'streaming: Paperclips: patented 1899, still useful.',
      'done: Paperclips: patented 1899, still useful.',
    ]);
    expect(snapshots.some((s) => dataOf(s, 'data-swarm-agent')[0]?.data.status === 'running')).toBe(true);
  });

  it('shows a topology called as a tool as a nested run part, with its path, under the tool call', async () => {
    const review = new SequentialWorkflow({
      name: 'review',
      agents: [new Agent({ name: 'critic', model: new ScriptedModel([reply('Looks right.')]) })],
    });
    const lead = new Agent({
      name: 'lead',
      tools: [review.asTool({ name: 'review' })],
      model: new ScriptedModel([
        toolCall('review', { task: 'Check the plan.' }, { id: 'call_rv' }),
        reply('Approved.'),
      ]),
    });
    const { message } = await readMessage(toUIMessageStream(runStream((o) => lead.run('Plan it.', o))));
    const [nested] = dataOf(message, 'data-swarm-run');
    expect(nested!.data).toMatchObject({
      path: ['lead', 'SequentialWorkflow'],
      topology: 'SequentialWorkflow',
      parentToolCallId: 'call_rv',
      status: 'done',
      output: 'Looks right.',
    });
    expect(nested!.data.parentRunId).toEqual(expect.any(String));
    expect(message.parts.map((p) => p.type)).toEqual([
      'data-swarm-agent', // lead
      'dynamic-tool', // review
      'data-swarm-run', // the nested SequentialWorkflow
      'data-swarm-agent', // critic
      'text', // critic
      'text', // lead
      'data-swarm-result',
    ]);
    expect(dataOf(message, 'data-swarm-agent')[1]?.data.path).toEqual(['lead', 'SequentialWorkflow']);
  });

  it('keeps tool parts apart when two agents of one run reuse a tool call id', async () => {
    const now = tool({
      name: 'clock',
      description: 'The time.',
      parameters: z.object({}),
      execute: () => '12:00',
    });
    const agent = (name: string, answer: string) =>
      new Agent({
        name,
        tools: [now],
        model: new ScriptedModel([toolCall('clock', {}, { id: 'call_1' }), reply(answer)]),
      });
    const workflow = new SequentialWorkflow({
      agents: [agent('first', 'It is noon.'), agent('second', 'Still noon.')],
    });
    const { message } = await readMessage(toUIMessageStream(workflow.stream('Time?')));
    const calls = dataOf(message, 'dynamic-tool');
    expect(calls.map((c) => [c.toolCallId, c.state, c.output, c.toolMetadata?.agent])).toEqual([
      ['call_1', 'output-available', '12:00', 'first'],
      ['call_1~2', 'output-available', '12:00', 'second'],
    ]);
    expect(calls.map((c) => c.toolMetadata?.toolCallId)).toEqual(['call_1', 'call_1']);
  });

  it('keeps apart the texts of two calls of one agent streaming at once, by their callId', () => {
    const chunks = new RunChunks();
    const at = new Date(0).toISOString();
    const event = (type: string, callId: string, delta?: string): SwarmEvent => ({
      type,
      runId: 'r1',
      at,
      agent: 'twin',
      callId,
      ...(delta !== undefined && { delta }),
    });
    const out = [
      event('model.delta', 'r1/1', 'first '),
      event('model.delta', 'r1/2', 'second '),
      event('model.delta', 'r1/1', 'answer'),
      event('model.response', 'r1/1'),
      event('model.delta', 'r1/2', 'answer'),
      event('model.response', 'r1/2'),
    ].flatMap((e) => chunks.push(e));
    const texts = new Map<string, string>();
    for (const chunk of out) {
      if (chunk.type === 'text-delta') texts.set(chunk.id, (texts.get(chunk.id) ?? '') + chunk.delta);
    }
    expect([...texts.values()]).toEqual(['first answer', 'second answer']);
    expect(out.filter((c) => c.type === 'text-end').map((c) => (c as { id: string }).id)).toEqual([
      ...texts.keys(),
    ]);
  });

  /** A clerk whose lookup tool throws an error holding a secret, then apologises. */
  function brokenLookup() {
    const broken = tool({
      name: 'lookup',
      description: 'Looks up.',
      parameters: z.object({ id: z.string() }),
      execute: () => {
        throw new Error('the database is down: postgres://admin:hunter2-secret@db.internal');
      },
    });
    return new Agent({
      name: 'clerk',
      tools: [broken],
      model: new ScriptedModel([
        toolCall('lookup', { id: '7' }, { id: 'call_l' }),
        reply('Sorry, try later.'),
      ]),
    });
  }

  it("shows a tool that failed as an output-error part saying only failed (TOOL): no part carries the tool's error text", async () => {
    const agent = brokenLookup();
    const [forReader, forChunks] = toUIMessageStream(runStream((o) => agent.run('Find 7.', o))).tee();
    const [{ message, errors }, chunks] = await Promise.all([readMessage(forReader), chunksOf(forChunks)]);
    expect(errors).toEqual([]);
    expect(dataOf(message, 'dynamic-tool')[0]).toMatchObject({
      toolCallId: 'call_l',
      state: 'output-error',
      errorText: 'failed (TOOL)',
    });
    expect(JSON.stringify(chunks)).not.toContain('hunter2-secret');
    expect(JSON.stringify(chunks)).not.toContain('the database is down');
    expect(JSON.stringify(message)).not.toContain('hunter2-secret');
    // The model read the error all the same: only the client is kept from it.
    expect(dataOf(message, 'data-swarm-result')[0]?.data.output).toBe('Sorry, try later.');
  });

  it("keeps a nested run's failure from every part: its run and agent parts and the parent's tool part say only the code", async () => {
    const checker = new Agent({
      name: 'checker',
      model: new ScriptedModel([
        fail(new ModelError('acme: invalid key sk-nested-secret', { provider: 'acme', status: 401 })),
      ]),
    });
    const researcher = new Agent({
      name: 'researcher',
      model: new ScriptedModel([
        toolCall('checker', { task: 'Check.' }, { id: 'call_c' }),
        reply('Could not check.'),
      ]),
      tools: [checker.asTool()],
    });
    const workflow = new SequentialWorkflow({ agents: [researcher] });
    const [forReader, forChunks] = toUIMessageStream(workflow.stream('Go.')).tee();
    const [{ message }, chunks] = await Promise.all([readMessage(forReader), chunksOf(forChunks)]);
    expect(dataOf(message, 'dynamic-tool')[0]).toMatchObject({
      toolCallId: 'call_c',
      state: 'output-error',
      errorText: 'failed (TOOL)',
    });
    expect(dataOf(message, 'data-swarm-agent').find((p) => p.data.agent === 'checker')?.data).toMatchObject({
      status: 'failed',
      error: 'failed (MODEL)',
    });
    expect(JSON.stringify(chunks)).not.toContain('sk-nested-secret');
    expect(JSON.stringify(chunks)).not.toContain('invalid key');
  });

  it("sends a failed tool's error text when onError lets it through, given it as a ToolError", async () => {
    const agent = brokenLookup();
    const seen: unknown[] = [];
    const { message } = await readMessage(
      toUIMessageStream(
        runStream((o) => agent.run('Find 7.', o)),
        {
          onError: (error) => {
            seen.push(error);
            return errorMessage(error);
          },
        },
      ),
    );
    expect(seen).toEqual([expect.any(ToolError)]);
    expect(seen[0]).toMatchObject({ code: 'TOOL', tool: 'lookup' });
    expect(dataOf(message, 'dynamic-tool')[0]).toMatchObject({
      toolCallId: 'call_l',
      state: 'output-error',
      errorText: 'Error: the database is down: postgres://admin:hunter2-secret@db.internal',
    });
    // A lone agent's run is named after the agent.
    expect(dataOf(message, 'text')[0]?.providerMetadata?.swarm).toMatchObject({
      agent: 'clerk',
      path: ['clerk'],
    });
    expect(dataOf(message, 'data-swarm-result')[0]?.data.output).toBe('Sorry, try later.');
  });

  it('ends a failed run with an error chunk naming only the code, the run part marked failed, no part with the detail', async () => {
    const failing = new Agent({
      name: 'researcher',
      model: new ScriptedModel([
        fail(new ModelError('acme: 401 invalid key sk-secret', { provider: 'acme', status: 401 })),
      ]),
    });
    const workflow = new SequentialWorkflow({ agents: [failing] });
    const run = workflow.stream('Anything.');
    const [forReader, forChunks] = toUIMessageStream(run).tee();
    const [{ message, errors }, chunks] = await Promise.all([readMessage(forReader), chunksOf(forChunks)]);
    await expect(run.result).rejects.toThrow(ModelError);

    expect(errors).toEqual(['The run failed (MODEL).']);
    expect(dataOf(message, 'data-swarm-run')[0]?.data).toMatchObject({
      status: 'failed',
      error: 'failed (MODEL)',
    });
    expect(dataOf(message, 'data-swarm-agent')[0]?.data).toMatchObject({
      agent: 'researcher',
      status: 'failed',
      error: 'failed (MODEL)',
    });
    // Nothing the client receives, before the error chunk or in it, carries the provider's detail.
    expect(JSON.stringify(chunks)).not.toContain('sk-secret');
    // The run's random id may hold any digits, so the detail is looked for as the provider wrote it.
    expect(JSON.stringify(chunks)).not.toContain('401 invalid key');
    expect(JSON.stringify(chunks)).not.toContain('"status":401');
    expect(dataOf(message, 'data-swarm-result')).toEqual([]);
  });

  it('sends the error message itself when onError says so', async () => {
    const failing = new Agent({
      name: 'a',
      model: new ScriptedModel([fail(new ModelError('boom', { provider: 'x' }))]),
    });
    const stream = toUIMessageStream(
      runStream((o) => failing.run('x', o)),
      { onError: errorMessage, messageId: 'm1' },
    );
    const chunks = await chunksOf(stream);
    expect(chunks[0]).toEqual({ type: 'start', messageId: 'm1' });
    expect(chunks.at(-1)).toEqual({ type: 'error', errorText: 'boom' });
    // The failed agent's part says what onError lets through, too.
    expect(chunks).toContainEqual(
      expect.objectContaining({ type: 'data-swarm-agent', data: expect.objectContaining({ error: 'boom' }) }),
    );
  });

  it('ends a run aborted by its own signal with an abort chunk, closing the text it left open', async () => {
    const stalled = new ReadableStream<LanguageModelV4StreamPart>({
      start(controller) {
        controller.enqueue({ type: 'text-start', id: 't' });
        controller.enqueue({ type: 'text-delta', id: 't', delta: 'Once upon' });
      },
    });
    const agent = new Agent({
      name: 'teller',
      model: aiSdkModel(new MockLanguageModelV4({ doStream: { stream: stalled } })),
    });
    const controller = new AbortController();
    const stream = toUIMessageStream(
      runStream((o) => agent.run('A story.', o), { signal: controller.signal }),
    );
    const chunks: SwarmUIMessageChunk[] = [];
    for await (const chunk of stream) {
      chunks.push(chunk);
      if (chunk.type === 'text-delta') controller.abort();
    }
    expect(chunks.map((c) => c.type).slice(-3)).toEqual(['text-end', 'data-swarm-agent', 'abort']);
    expect(chunks.some((c) => c.type === 'finish' || c.type === 'error')).toBe(false);
  });
});

describe('toUIMessageStream: bad input', () => {
  it('refuses what is not a run or a function that starts one, and an empty messageId, with a ConfigError', () => {
    const workflow = new SequentialWorkflow({
      agents: [new Agent({ name: 'a', model: new ScriptedModel([]) })],
    });
    // What run() returns, a promise of the result, is not a stream.
    expect(() => toUIMessageStream(Promise.resolve({ output: 'x' }) as never)).toThrow(ConfigError);
    expect(() => toUIMessageStream({} as never)).toThrow(/expected what a topology's stream\(task\) returns/);
    expect(() => toUIMessageStream(() => workflow.stream('x'), { messageId: '' })).toThrow(/messageId/);
  });
});

describe('toUIMessageStream: the consumer cancelling', () => {
  it('aborts the run when given a function that starts it: the AI SDK model sees its signal fire', async () => {
    const stalled = new ReadableStream<LanguageModelV4StreamPart>({
      start(controller) {
        controller.enqueue({ type: 'text-start', id: 't' });
        controller.enqueue({ type: 'text-delta', id: 't', delta: 'Once upon' });
      },
    });
    const languageModel = new MockLanguageModelV4({ doStream: { stream: stalled } });
    const agent = new Agent({ name: 'teller', model: aiSdkModel(languageModel) });
    let run: RunStream<unknown> | undefined;
    const stream = toUIMessageStream((signal) => {
      const started = runStream((o) => agent.run('A story.', o), { signal });
      run = started;
      return started;
    });
    const reader = stream.getReader();
    for (;;) {
      const { value } = await reader.read();
      if (value?.type === 'text-delta') break;
    }
    await reader.cancel('the client went away');
    await expect(run!.result).rejects.toMatchObject({ code: 'ABORTED' });
    expect(languageModel.doStreamCalls[0]!.abortSignal?.aborted).toBe(true);
  });

  it('stops reading a run it was handed, which goes on to its end', async () => {
    const slow = new ScriptedModel([reply('First answer.'), reply('Second answer.')], { latencyMs: 30 });
    const workflow = new SequentialWorkflow({
      agents: [new Agent({ name: 'one', model: slow }), new Agent({ name: 'two', model: slow })],
    });
    const run: RunStream<TopologyResult> = workflow.stream('Go.');
    const reader = toUIMessageStream(run).getReader();
    for (;;) {
      const { value } = await reader.read();
      if (value?.type === 'text-delta') break;
    }
    await reader.cancel();
    expect((await run.result).output).toBe('Second answer.');
    expect(slow.calls).toHaveLength(2);
  });
});

describe('toUIMessageStreamResponse', () => {
  it('answers with the AI SDK UI message stream over server-sent events, as useChat reads it', async () => {
    const response = toUIMessageStreamResponse(paperclipTeam().stream('Write a line about paperclips.'), {
      headers: { 'x-run': 'paperclips' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    expect(response.headers.get('x-run')).toBe('paperclips');

    // What the AI SDK's HTTP chat transport does with the body: parse and validate each chunk.
    const chunks = parseJsonEventStream({ stream: response.body!, schema: uiMessageChunkSchema }).pipeThrough(
      new TransformStream({
        transform(parsed, controller) {
          if (!parsed.success) throw parsed.error;
          controller.enqueue(parsed.value);
        },
      }),
    );
    const { message, errors } = await readMessage(chunks);
    expect(errors).toEqual([]);
    expect(dataOf(message, 'data-swarm-result')[0]?.data.output).toBe(
      'Paperclips: patented 1899, still useful.',
    );
    expect(dataOf(message, 'text').map((p) => p.providerMetadata?.swarm?.agent)).toEqual([
      'checker',
      'researcher',
      'writer',
    ]);
  });
});
