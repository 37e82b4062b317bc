import { Agent, type ModelRequest } from '@swarm/core';
import { reply, ScriptedModel, type ScriptStep } from '@swarm/core/testing';
import { forced } from './worst-case.fixture.js';

/** A worker agent whose model follows `steps` (a reply, a failure, a gated respond...). */
export function worker(name: string, ...steps: ScriptStep[]): { agent: Agent; model: ScriptedModel } {
  const model = new ScriptedModel(steps, { id: name });
  return { agent: new Agent({ name, description: `${name} work`, model }), model };
}

/** A worker that always answers with the same text. */
export function steadyWorker(name: string, text = `${name} output`) {
  const model = new ScriptedModel([], { id: name, fallback: reply(text) });
  return { agent: new Agent({ name, description: `${name} work`, model }), model };
}

/**
 * A head's model that answers by purpose: each purpose takes the next item of its queue (an
 * object for a structured call, a text otherwise). An unexpected purpose or a spent queue throws.
 */
export function headModel(script: Record<string, (Record<string, unknown> | string)[]>): ScriptedModel {
  const queues = Object.fromEntries(Object.entries(script).map(([k, v]) => [k, [...v]]));
  return new ScriptedModel([], {
    id: 'head',
    fallback: {
      kind: 'respond',
      fn: (request) => {
        const purpose = request.metadata?.purpose ?? '?';
        const next = queues[purpose]?.shift();
        if (next === undefined) throw new Error(`head model: no scripted answer left for purpose ${purpose}`);
        return typeof next === 'string' ? next : forced(request, next);
      },
    },
  });
}

/** The text of every message of a request, for asserting on what a call saw. */
export function seen(request: ModelRequest | undefined): string {
  return (request?.messages ?? [])
    .map((m) => `${m.role}${m.name ? `(${m.name})` : ''}: ${m.content}`)
    .join('\n');
}
