import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StructuredOutputError } from '../kernel/errors.js';
import { RunContext } from '../kernel/run-context.js';
import { object, reply, ScriptedModel } from '../testing/scripted-model.js';
import { generateObject } from './generate-object.js';

const Verdict = z.object({ score: z.number().min(0).max(1), critique: z.string() });

describe('generateObject', () => {
  it('forces a call of the named function and returns the validated object', async () => {
    const model = new ScriptedModel([object({ score: 0.8, critique: 'sound' })]);
    const result = await generateObject(model, { schema: Verdict, name: 'rate', prompt: 'Rate this.' });
    expect(result.object).toEqual({ score: 0.8, critique: 'sound' });
    expect(result.llmCalls).toBe(1);
    expect(model.lastCall?.toolChoice).toEqual({ name: 'rate' });
    expect(model.lastCall?.tools?.[0]).toMatchObject({ name: 'rate', parameters: { type: 'object' } });
  });

  it('repairs an invalid answer once and counts both calls', async () => {
    const model = new ScriptedModel([
      object({ score: 7, critique: 'too high' }),
      object({ score: 0.7, critique: 'ok' }),
    ]);
    const context = new RunContext();
    const result = await generateObject(model, { schema: Verdict, prompt: 'Rate.', context });
    expect(result.object.score).toBe(0.7);
    expect(result.llmCalls).toBe(2);
    expect(context.llmCalls).toBe(2);
    expect(result.usage.totalTokens).toBe(30);
    const repair = model.calls[1]?.messages.at(-1);
    expect(repair?.role).toBe('tool');
    expect(repair?.content).toMatch(/^Invalid arguments: score: .*<=1/);
  });

  it('asks again when the model answers in prose instead of calling the function', async () => {
    const model = new ScriptedModel([reply('I think 0.5'), object({ score: 0.5, critique: 'meh' })]);
    const result = await generateObject(model, { schema: Verdict, prompt: 'Rate.' });
    expect(result.object.score).toBe(0.5);
    expect(model.calls[1]?.messages.at(-1)?.content).toMatch(/must answer by calling the function respond/);
  });

  it('throws StructuredOutputError after maxRepairs when every answer is invalid', async () => {
    const model = new ScriptedModel([], { fallback: object({ score: 'high' }) });
    const error = await generateObject(model, { schema: Verdict, prompt: 'Rate.', maxRepairs: 2 }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect((error as StructuredOutputError).attempts).toHaveLength(3);
    expect(model.calls).toHaveLength(3);
  });

  it('rejects a call with neither prompt nor messages', async () => {
    await expect(generateObject(new ScriptedModel(), { schema: Verdict })).rejects.toThrow(
      /prompt or a non-empty/,
    );
    await expect(generateObject(new ScriptedModel(), { schema: Verdict, prompt: '' })).rejects.toThrow(
      /prompt or a non-empty/,
    );
  });

  it('sends the invalid call back with its validation error before asking again', async () => {
    const model = new ScriptedModel([
      object({ score: 7, critique: 'too high' }),
      object({ score: 0.7, critique: 'ok' }),
    ]);
    await generateObject(model, { schema: Verdict, name: 'rate', prompt: 'Rate.' });
    const [prompt, assistant, repair] = model.calls[1]?.messages ?? [];
    expect(prompt).toEqual({ role: 'user', content: 'Rate.' });
    expect(assistant?.toolCalls?.[0]).toMatchObject({ name: 'rate', arguments: { score: 7 } });
    expect(repair).toMatchObject({ role: 'tool', toolCallId: assistant?.toolCalls?.[0]?.id });
    expect(model.calls[1]?.toolChoice).toEqual({ name: 'rate' });
  });
});
