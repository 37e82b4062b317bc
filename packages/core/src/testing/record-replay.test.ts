import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent } from '../agent/agent.js';
import type { SwarmEvent } from '../contracts/events.js';
import type { Model, ModelRequest } from '../contracts/model.js';
import { RunContext } from '../kernel/run-context.js';
import { Gate } from './gate.js';
import { recordModel } from './record-model.js';
import { ReplayMismatchError, replayModel } from './replay-model.js';
import { fail, reply, respond, ScriptedModel, toolCalls } from './scripted-model.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cassette-'));
  file = join(dir, 'run.jsonl');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A lead agent that asks two agents at once (both tools in one response), then answers from them. */
function team(modelOf: (agent: string) => Model, task = 'Should we ship on Friday?') {
  const researcher = new Agent({
    name: 'researcher',
    instructions: 'Find facts.',
    model: modelOf('researcher'),
  });
  const critic = new Agent({ name: 'critic', instructions: 'Find risks.', model: modelOf('critic') });
  const lead = new Agent({
    name: 'lead',
    instructions: 'Ask both, then decide.',
    model: modelOf('lead'),
    tools: [researcher.asTool(), critic.asTool()],
  });
  const events: SwarmEvent[] = [];
  const run = () => lead.run(task, { onEvent: (e) => events.push(e) });
  return { run, events };
}

function scripted(researcher: ScriptedModel = new ScriptedModel([reply('Tests are green.')], { id: 'r' })) {
  return {
    lead: new ScriptedModel(
      [
        toolCalls(
          { name: 'researcher', arguments: { task: 'What do we know?' } },
          { name: 'critic', arguments: { task: 'What could go wrong?' } },
        ),
        reply('Ship on Friday, with a rollback plan.', { usage: { inputTokens: 40, outputTokens: 9 } }),
      ],
      { id: 'l' },
    ),
    researcher,
    critic: new ScriptedModel([reply('A Friday outage waits until Monday.')], { id: 'c' }),
  };
}

const summary = (events: SwarmEvent[]) => events.map((e) => `${e.type} ${e.agent ?? ''}`);

describe('recordModel and replayModel', () => {
  it('replay a recorded multi-agent concurrent run offline: the same result and the same trace', async () => {
    const models = scripted();
    const recording = team((agent) => recordModel(models[agent as keyof typeof models], { file }));
    const recorded = await recording.run();

    const replay = replayModel({ file });
    const replaying = team(() => replay);
    const replayed = await replaying.run();

    expect(replayed).toEqual(recorded);
    expect(summary(replaying.events)).toEqual(summary(recording.events));
    expect(replaying.events.filter((e) => e.type === 'model.response').map((e) => e.usage)).toEqual(
      recording.events.filter((e) => e.type === 'model.response').map((e) => e.usage),
    );
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(4);
    replay.assertComplete();
  });

  it('match concurrent calls by content, not by the order they were recorded in', async () => {
    const gate = new Gate();
    // The researcher answers only after the critic has: the cassette holds the critic's call first.
    const slowResearcher = new ScriptedModel([
      respond(async () => {
        await gate.wait();
        return 'Tests are green.';
      }),
    ]);
    const models = scripted(slowResearcher);
    const recording = team((agent) => recordModel(models[agent as keyof typeof models], { file }));
    const running = recording.run();
    await gate.until(1);
    await new Promise((resolve) => setImmediate(resolve));
    gate.open();
    const recorded = await running;
    const agents = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).request.metadata.agent);
    expect(agents).toEqual(['lead', 'critic', 'researcher', 'lead']);

    const replay = replayModel({ file });
    const replayed = await team(() => replay).run();
    expect(replayed.output).toBe(recorded.output);
    expect(replayed.toolCalls.map((c) => c.result)).toEqual([
      'Tests are green.',
      'A Friday outage waits until Monday.',
    ]);
  });

  it('fail a changed prompt with its first difference: the path and both values', async () => {
    const models = scripted();
    await team((agent) => recordModel(models[agent as keyof typeof models], { file })).run();

    const replay = replayModel({ file });
    const changed = team(() => replay, 'Should we ship on Monday?');
    const error = await changed.run().catch((e: unknown) => e);

    expect(String((error as Error).message)).toContain(
      'no recorded request matches call #1 (agent lead, purpose agent); first difference at messages[0].content (character 19): recorded "Should we ship on Friday?", got "Should we ship on Monday?"',
    );
    expect(replay.mismatches[0]).toBeInstanceOf(ReplayMismatchError);
    expect(replay.mismatches[0]!.difference).toEqual({
      path: 'messages[0].content',
      recorded: 'Should we ship on Friday?',
      actual: 'Should we ship on Monday?',
    });
    expect(() => replay.assertComplete()).toThrow(ReplayMismatchError);
  });

  it('answer repeated identical requests in recorded order, and refuse one more than was recorded', async () => {
    const model = recordModel(new ScriptedModel([reply('first'), reply('second')]), { file });
    const request: ModelRequest = { messages: [{ role: 'user', content: 'again' }] };
    await model.generate(request);
    await model.generate(request);

    const replay = replayModel({ file });
    expect((await replay.generate(request)).text).toBe('first');
    expect((await replay.generate(request)).text).toBe('second');
    await expect(replay.generate(request)).rejects.toThrow(
      /call #3 \(agent \?, purpose \?\) was recorded 2 time\(s\), and every recording has been replayed already/,
    );
  });

  it('never write a signal, a header or a key, only what the model answers from', async () => {
    const model = recordModel(new ScriptedModel([reply('ok')]), { file });
    const request = {
      messages: [{ role: 'user' as const, content: 'hi' }],
      signal: new AbortController().signal,
      headers: { Authorization: 'Bearer sk-secret' },
      apiKey: 'sk-secret',
      metadata: { agent: 'a', purpose: 'agent', token: 'sk-secret' },
    } as ModelRequest;
    await model.generate(request);

    const written = readFileSync(file, 'utf8');
    expect(written).not.toMatch(/sk-secret|Authorization|headers|apiKey|signal/);
    expect(JSON.parse(written).request).toEqual({
      messages: [{ role: 'user', content: 'hi' }],
      metadata: { agent: 'a', purpose: 'agent' },
    });
  });

  it('replay a streamed run: the recorded final response arrives as deltas, then the same answer', async () => {
    const streamed = (model: Model) => {
      const events: SwarmEvent[] = [];
      const context = new RunContext({ textDeltas: true, onEvent: (e) => events.push(e) });
      const agent = new Agent({ name: 'writer', model });
      return { run: () => agent.run('Write a haiku.', { context }), events };
    };
    const recording = streamed(recordModel(new ScriptedModel([reply('Old pond, frog jumps in')]), { file }));
    const recorded = await recording.run();
    expect(recording.events.some((e) => e.type === 'model.delta')).toBe(true);

    const replaying = streamed(replayModel({ file }));
    const replayed = await replaying.run();
    expect(replayed).toEqual(recorded);
    expect(
      replaying.events
        .filter((e) => e.type === 'model.delta')
        .map((e) => e.delta)
        .join(''),
    ).toBe('Old pond, frog jumps in');
  });

  it('replay a recorded failure as the same ModelError', async () => {
    const model = recordModel(new ScriptedModel([fail(new Error('upstream 503'))]), { file });
    const request: ModelRequest = { messages: [{ role: 'user', content: 'x' }] };
    await expect(model.generate(request)).rejects.toThrow('upstream 503');

    await expect(replayModel({ file }).generate(request)).rejects.toMatchObject({
      code: 'MODEL',
      message: 'upstream 503',
    });
  });

  it('replay one recorded model of many by its id, going by that id', async () => {
    const models = scripted();
    await team((agent) => recordModel(models[agent as keyof typeof models], { file })).run();

    const replays = Object.fromEntries(
      Object.values(models).map((m) => [m.id, replayModel({ file, model: m.id })]),
    );
    const byAgent = { lead: 'l', researcher: 'r', critic: 'c' } as Record<string, string>;
    const replaying = team((agent) => replays[byAgent[agent]!]!);
    const replayed = await replaying.run();

    expect(replayed.output).toBe('Ship on Friday, with a rollback plan.');
    for (const replay of Object.values(replays)) replay.assertComplete();
    expect(replays.l!.id).toBe('l');
    expect(replaying.events.filter((e) => e.type === 'model.request').map((e) => e.model)).toEqual([
      'l',
      'r',
      'c',
      'l',
    ]);
  });

  it('report recorded calls that were never replayed, and a cassette that is not one', async () => {
    const model = recordModel(new ScriptedModel([reply('ok')]), { file });
    await model.generate({ messages: [{ role: 'user', content: 'x' }] });
    expect(() => replayModel({ file }).assertComplete()).toThrow(/1 recorded call\(s\) were never replayed/);
    expect(() => replayModel({ file: join(dir, 'missing.jsonl') })).toThrow(/cannot read the cassette/);
  });
});

describe('cassettes keep what a provider reported beside the answer', () => {
  it('records and replays reasoning, responseId and responseModel (reasoning streamed first)', async () => {
    const reasoning = {
      text: 'Think first.',
      blocks: [
        { type: 'thinking' as const, text: 'Think first.', signature: 'sig-1' },
        { type: 'redacted' as const, data: 'enc' },
      ],
    };
    const inner: Model = {
      id: 'm',
      generate: async () => ({
        text: 'Answer.',
        toolCalls: [],
        usage: { inputTokens: 1, outputTokens: 1, cachedTokens: 0, reasoningTokens: 3, totalTokens: 2 },
        finishReason: 'stop',
        modelId: 'm',
        responseId: 'msg_1',
        responseModel: 'm-2026-01-01',
        reasoning,
      }),
    };
    const request: ModelRequest = { messages: [{ role: 'user', content: 'Q?' }] };
    await recordModel(inner, { file }).generate(request);
    const replay = replayModel({ file });
    expect(await replay.generate(request)).toMatchObject({
      responseId: 'msg_1',
      responseModel: 'm-2026-01-01',
      reasoning,
    });
    const events: string[] = [];
    for await (const event of replayModel({ file }).stream!(request)) {
      events.push(
        event.type === 'reasoning-delta' || event.type === 'text-delta'
          ? `${event.type} ${event.delta}`
          : event.type,
      );
    }
    expect(events).toEqual(['reasoning-delta Think first.', 'text-delta Answer.', 'finish']);
  });
});
