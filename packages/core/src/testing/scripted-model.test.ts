import { describe, expect, it } from 'vitest';
import { AbortError } from '../kernel/errors.js';
import { Gate } from './gate.js';
import { fail, reply, respond, ScriptedModel, toolCall } from './scripted-model.js';

const ask = (content: string, signal?: AbortSignal) => ({
  messages: [{ role: 'user' as const, content }],
  ...(signal && { signal }),
});

describe('ScriptedModel', () => {
  it('answers with its steps in order and records every request without its signal', async () => {
    const model = new ScriptedModel([reply('one'), toolCall('add', { a: 1 }, { id: 'c1' })]);
    const controller = new AbortController();
    expect((await model.generate(ask('first', controller.signal))).text).toBe('one');
    const second = await model.generate(ask('second'));
    expect(second.toolCalls).toEqual([{ id: 'c1', name: 'add', arguments: { a: 1 } }]);
    expect(second.finishReason).toBe('tool-calls');
    expect(model.calls.map((c) => c.messages[0]?.content)).toEqual(['first', 'second']);
    expect(model.calls[0]).not.toHaveProperty('signal');
    expect(model.lastCall?.messages[0]?.content).toBe('second');
  });

  it('is strict: a call after the script is spent throws', async () => {
    const model = new ScriptedModel([reply('only')]);
    await model.generate(ask('1'));
    await expect(model.generate(ask('2'))).rejects.toThrow(/unexpected call #2.*script is spent/);
  });

  it('answers from the fallback once the script is spent', async () => {
    const model = new ScriptedModel([], { fallback: reply('again') });
    expect((await model.generate(ask('1'))).text).toBe('again');
    expect((await model.generate(ask('2'))).text).toBe('again');
  });

  it('assertComplete throws while steps are left, and passes once all are used', async () => {
    const model = new ScriptedModel([reply('a'), reply('b')]);
    await model.generate(ask('1'));
    expect(() => model.assertComplete()).toThrow(/1 scripted step\(s\) were never used/);
    await model.generate(ask('2'));
    expect(() => model.assertComplete()).not.toThrow();
  });

  it('fails with the scripted error', async () => {
    const boom = new Error('boom');
    await expect(new ScriptedModel([fail(boom)]).generate(ask('x'))).rejects.toBe(boom);
  });

  it('computes a reply from the request and its index', async () => {
    const model = new ScriptedModel([], {
      fallback: respond((request, index) => `${index}:${request.messages[0]?.content}`),
    });
    await model.generate(ask('a'));
    expect((await model.generate(ask('b'))).text).toBe('1:b');
  });

  it('waits latencyMs, and an abort cuts the wait with AbortError', async () => {
    const slow = new ScriptedModel([reply('late')], { latencyMs: 30 });
    const started = Date.now();
    expect((await slow.generate(ask('x'))).text).toBe('late');
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);

    const stuck = new ScriptedModel([reply('never')], { latencyMs: 60_000 });
    const controller = new AbortController();
    const pending = stuck.generate(ask('x', controller.signal));
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(AbortError);
  });

  it('gives way to an abort while a respond step is still waiting', async () => {
    const gate = new Gate();
    const model = new ScriptedModel([
      respond(async () => {
        await gate.wait();
        return 'too late';
      }),
    ]);
    const controller = new AbortController();
    const pending = model.generate(ask('x', controller.signal));
    await gate.until(1);
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(AbortError);
    gate.open();
  });

  it('refuses a call whose signal already fired, recording it', async () => {
    const model = new ScriptedModel([reply('unused')]);
    await expect(model.generate(ask('x', AbortSignal.abort()))).rejects.toBeInstanceOf(AbortError);
    expect(model.calls).toHaveLength(1);
    expect(model.remaining).toBe(1);
  });

  it('streams the text word by word and ends with the whole response', async () => {
    const model = new ScriptedModel([reply('two words')]);
    const parts: string[] = [];
    for await (const event of model.stream!(ask('x'))) {
      parts.push(event.type === 'text-delta' ? event.delta : event.type);
    }
    expect(parts).toEqual(['two ', 'words', 'finish']);
    expect(new ScriptedModel([], { streaming: false }).stream).toBeUndefined();
  });
});
