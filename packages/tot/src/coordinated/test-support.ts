import type { ModelRequest, SwarmEvent, Usage } from '@swarm/core';
import { messageText } from '@swarm/core';
import { respond, ScriptedModel } from '@swarm/core/testing';
import type { CoordinatedModels } from './coordinated-options.js';

// Helpers of this folder's tests: one scripted model per role, each answering by the thought it is shown.

/** The user prompt of a request (its first turn: repairs come after it). */
export function promptOf(request: ModelRequest): string {
  return messageText(request.messages[0] ?? { content: '' });
}

/** The thoughts under PATH SO FAR (empty for the Planner's strategies request). */
export function pathOf(request: ModelRequest): string[] {
  const section = /PATH SO FAR:\n([\s\S]*?)(?:\n\n|$)/.exec(promptOf(request))?.[1];
  return section ? section.split('\n').map((line) => line.replace(/^\d+\. /, '')) : [];
}

/** The thought a request is about: the last of its path, `''` for the problem itself. */
export function thoughtOf(request: ModelRequest): string {
  return pathOf(request).at(-1) ?? '';
}

/** A model whose every call fails with `message`. */
export function downModel(message = 'down'): ScriptedModel {
  return new ScriptedModel([], { fallback: { kind: 'fail', error: new Error(message) } });
}

/**
 * A Planner proposing `children[thought]` (`''` is the problem: the initial strategies); its call
 * for a thought in `down` fails.
 */
export function plannerModel(
  children: Record<string, string[]>,
  usage?: Partial<Usage>,
  down: string[] = [],
): ScriptedModel {
  return new ScriptedModel([], {
    id: 'planner',
    ...(usage && { usage }),
    fallback: respond((request) => {
      if (down.includes(thoughtOf(request))) throw new Error('planner is down');
      const name = forced(request);
      return { toolCalls: [{ name, arguments: { thoughts: children[thoughtOf(request)] ?? [] } }] };
    }),
  });
}

/** One evaluator's verdict on a thought. */
export interface Verdict {
  score: number;
  terminate?: boolean;
}

/** An Analyzer or a Critic giving `verdicts[thought]` (else `fallback`). */
export function evaluatorModel(
  id: string,
  verdicts: Record<string, Verdict>,
  fallback: Verdict = { score: 5 },
  usage?: Partial<Usage>,
): ScriptedModel {
  return new ScriptedModel([], {
    id,
    ...(usage && { usage }),
    fallback: respond((request) => {
      const verdict = verdicts[thoughtOf(request)] ?? fallback;
      return {
        toolCalls: [
          {
            name: forced(request),
            arguments: {
              score: verdict.score,
              terminate: verdict.terminate ?? false,
              reasons: [`${id} on ${thoughtOf(request) || 'the problem'}`],
            },
          },
        ],
      };
    }),
  });
}

/** A Synthesizer answering with the node ids it was shown. */
export function synthesizerModel(usage?: Partial<Usage>): ScriptedModel {
  return new ScriptedModel([], {
    id: 'synthesizer',
    ...(usage && { usage }),
    fallback: respond((request) => {
      const ids = [...promptOf(request).matchAll(/^(root[-\d]*) \(score/gm)].map((m) => m[1]);
      return `answer from ${ids.join(', ') || 'the problem alone'}`;
    }),
  });
}

/** A team of scripted role models (the Researcher only when asked for). */
export function scriptedTeam(
  children: Record<string, string[]>,
  verdicts: { analyzer?: Record<string, Verdict>; critic?: Record<string, Verdict>; fallback?: Verdict } = {},
) {
  const planner = plannerModel(children);
  const analyzer = evaluatorModel('analyzer', verdicts.analyzer ?? {}, verdicts.fallback);
  const critic = evaluatorModel('critic', verdicts.critic ?? {}, verdicts.fallback);
  const synthesizer = synthesizerModel();
  const models: CoordinatedModels = { planner, analyzer, critic, synthesizer };
  return { planner, analyzer, critic, synthesizer, models };
}

/** Collects events of the given type. */
export function eventsOf(events: SwarmEvent[], type: string): SwarmEvent[] {
  return events.filter((event) => event.type === type);
}

/** The statuses a node went through, from its `tot.node` events. */
export function statusesOf(events: SwarmEvent[], nodeId: string): string[] {
  return events
    .filter((e) => e.type === 'tot.node' && e.nodeId === nodeId && e.change !== 'rejected')
    .map((e) => String(e.status));
}

function forced(request: ModelRequest): string {
  const choice = request.toolChoice;
  if (typeof choice !== 'object') throw new Error('expected a forced function call');
  return choice.name;
}
