import { configuredModel, configureModelHint, type Model, type ModelRequest } from '@swarm/core';
import { respond, ScriptedModel, type ScriptedReply } from '@swarm/core/testing';

/**
 * The configured model (real answers), or a scripted offline stand-in that answers with `offline`
 * so every example runs with no key and no network.
 */
export function exampleModel(offline: (request: ModelRequest) => ScriptedReply): Model | string {
  const model = configuredModel();
  if (model) {
    console.log(`Model: ${model}\n`);
    return model;
  }
  console.log(`No model configured: the agents give scripted answers. ${configureModelHint}\n`);
  return new ScriptedModel([], { id: 'offline', fallback: respond(offline) });
}

/** A reply calling the function the request forces with `args` (an offline structured answer). */
export function call(request: ModelRequest, args: Record<string, unknown>): ScriptedReply {
  const choice = request.toolChoice;
  const name = typeof choice === 'object' ? choice.name : 'respond';
  return { text: '', toolCalls: [{ name, arguments: args }] };
}

/** The agent a request came from. */
export function agentOf(request: ModelRequest): string {
  return request.metadata?.agent ?? '';
}
