import { Agent, type ModelRequest, outputToolName, tool } from '@swarm/core';
import { ScriptedModel, type ScriptedReply } from '@swarm/core/testing';
import { z } from 'zod';

const noop = tool({
  name: 'noop',
  description: 'Does nothing.',
  parameters: z.object({}),
  execute: () => 'ok',
});

/** Agents with a tool, so each attempt can take up to `maxTurns` calls. */
export function toolAgents(names: string[], model: ScriptedModel, maxTurns: number): Agent[] {
  return names.map((name) => new Agent({ name, model, tools: [noop], maxTurns }));
}

/**
 * A worker's most expensive path: every attempt but the last uses all `maxTurns` calls and fails
 * (too many turns); the last attempt answers on its final allowed turn. Calls are counted per
 * input (the last user turn), so concurrent orders each take their own worst path.
 */
export function worstWorker(attempts: number, maxTurns: number) {
  const counts = new Map<string, number>();
  return (request: ModelRequest): ScriptedReply => {
    const key = `${request.metadata?.agent}|${JSON.stringify(request.messages.filter((m) => m.role === 'user'))}`;
    const k = counts.get(key) ?? 0;
    counts.set(key, k + 1);
    const lastAttempt = Math.floor(k / maxTurns) >= attempts - 1;
    if (lastAttempt && k % maxTurns === maxTurns - 1) return 'finally done';
    return { text: '', toolCalls: [{ name: 'noop', arguments: {} }] };
  };
}

/**
 * The forced call of a structured request with `args`: the function it names, or (a head with
 * tools of its own, whose run's outputType is forced as `'required'`) the final output tool.
 */
export function forced(request: ModelRequest, args: Record<string, unknown>): ScriptedReply {
  const choice = request.toolChoice;
  const name =
    typeof choice === 'object'
      ? choice.name
      : request.tools?.some((t) => t.name === outputToolName)
        ? outputToolName
        : 'respond';
  return { text: '', toolCalls: [{ name, arguments: args }] };
}

/** A model answering every call through `fn`, counting nothing itself (wrap in CountingModel to count). */
export function modelOf(fn: (request: ModelRequest) => ScriptedReply): ScriptedModel {
  return new ScriptedModel([], { fallback: { kind: 'respond', fn } });
}
