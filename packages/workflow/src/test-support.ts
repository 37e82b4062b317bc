import { Agent, type ModelRequest, type Tool, tool } from '@swarm/core';
import { respond, ScriptedModel, type ScriptedReply } from '@swarm/core/testing';
import { z } from 'zod';

/** How a scripted member answers one request. */
export type Answer = (request: ModelRequest) => ScriptedReply | Promise<ScriptedReply>;

/**
 * Agents sharing one scripted model that answers each request by the asking agent's name
 * (`req.metadata.agent`); an agent with no answer given replies `<name> says: <last turn>`.
 */
export function team(names: readonly string[], answers: Record<string, Answer | string> = {}) {
  const model = new ScriptedModel([], {
    fallback: respond((request) => {
      const agent = request.metadata?.agent ?? '?';
      const answer = answers[agent];
      if (typeof answer === 'string') return answer;
      if (answer) return answer(request);
      return `${agent} says: ${request.messages.at(-1)?.content ?? ''}`;
    }),
  });
  const agents = names.map((name) => new Agent({ name, model }));
  return { model, agents, byName: Object.fromEntries(agents.map((a) => [a.name, a])) };
}

/** The requests one agent received, in order. */
export function callsOf(model: ScriptedModel, agent: string): ModelRequest[] {
  return model.calls.filter((c) => c.metadata?.agent === agent);
}

/** A tool that does nothing: lets a model take an agent's most expensive path (a tool call every turn). */
export const noopTool: Tool = tool({
  name: 'noop',
  description: 'Does nothing.',
  parameters: z.object({}),
  execute: () => 'ok',
});

/**
 * A model that always takes an agent's most expensive path: it calls `noop` until the agent has one
 * turn left (of `maxTurns`), then answers. Each agent run then makes exactly `maxTurns` calls.
 */
export function mostExpensiveModel(maxTurns: number): ScriptedModel {
  return new ScriptedModel([], {
    fallback: respond((request) => {
      const toolTurns = request.messages.filter((m) => m.role === 'tool').length;
      if (toolTurns < maxTurns - 1) return { text: '', toolCalls: [{ name: 'noop', arguments: {} }] };
      return `${request.metadata?.agent} is done`;
    }),
  });
}
