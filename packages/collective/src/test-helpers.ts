import { Agent, type ModelRequest } from '@swarm/core';
import { Gate, respond, ScriptedModel, type ScriptedReply } from '@swarm/core/testing';

/** An agent whose every call is answered by `answer`, and the model that records what it received. */
export function scripted(
  name: string,
  answer: (request: ModelRequest, index: number) => ScriptedReply | Promise<ScriptedReply>,
  instructions?: string,
): { agent: Agent; model: ScriptedModel } {
  const model = new ScriptedModel([], { id: name, fallback: respond(answer) });
  return { agent: new Agent({ name, model, ...(instructions && { instructions }) }), model };
}

/** A reply calling the function the request forces with `args` (the answer to a generateObject). */
export function forced(request: ModelRequest, args: Record<string, unknown>): ScriptedReply {
  const choice = request.toolChoice;
  if (typeof choice !== 'object')
    throw new Error(`expected a forced function call, got ${JSON.stringify(choice)}`);
  return { text: '', toolCalls: [{ name: choice.name, arguments: args }] };
}

/** Every text the request carries (system prompt and turns), to check what a model was shown. */
export function shown(request: ModelRequest | undefined): string {
  if (!request) return '';
  return [request.system ?? '', ...request.messages.map((m) => `${m.name ?? ''} ${m.content}`)].join('\n');
}

/**
 * An agent whose structured calls fail validation `repairs` times before `args` is given: the
 * most expensive path of a generateObject with that many repairs. Text calls get `text`.
 */
export function slowToComply(
  name: string,
  repairs: number,
  args: (request: ModelRequest) => Record<string, unknown>,
  text = `${name} says`,
): { agent: Agent; model: ScriptedModel } {
  let tries = 0;
  return scripted(name, (request) => {
    if (typeof request.toolChoice !== 'object') return text;
    // A repair turn ends with the tool result of the failed call; a fresh call does not.
    const fresh = request.messages.at(-1)?.role !== 'tool';
    if (fresh) tries = 0;
    tries += 1;
    return forced(request, tries <= repairs ? { wrong: true } : args(request));
  });
}

/** The ids a rank call's schema offers, in order (a valid ranking of them). */
export function offeredIds(request: ModelRequest): string[] {
  const parameters = request.tools?.[0]?.parameters as
    | { properties?: { ranking?: { items?: { enum?: string[] } } } }
    | undefined;
  return parameters?.properties?.ranking?.items?.enum ?? [];
}

/**
 * Makes `count` concurrent calls finish in reverse order, without timings: each call's `hold(i)`
 * waits until all `count` have started (so a run that does not start them together never gets
 * past it), then call i returns only after call i + 1 has. `finished` records the order.
 */
export function reverseFinish(count: number) {
  const start = new Gate();
  const done = Array.from({ length: count }, () => new Gate());
  const finished: number[] = [];
  let started = 0;
  return {
    finished,
    async hold(i: number): Promise<void> {
      started += 1;
      if (started === count) start.open();
      await start.wait();
      if (i + 1 < count) await done[i + 1]!.wait();
      finished.push(i);
      done[i]!.open();
    },
  };
}
