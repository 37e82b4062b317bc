import type { ModelRequest, SwarmEvent } from '@swarm/core';
import { messageText } from '@swarm/core';
import { respond, ScriptedModel } from '@swarm/core/testing';

// Helpers shared by this package's tests: read what a ToT request asks, and script a tree by content.

/** The user prompt of a request. */
export function promptOf(request: ModelRequest): string {
  return messageText(request.messages.at(-1) ?? { content: '' });
}

/** The forced function's name: propose_thoughts, next_thought, rate_thought, vote_thought, final_answer. */
export function functionOf(request: ModelRequest): string {
  const choice = request.toolChoice;
  return typeof choice === 'object' ? choice.name : '';
}

/** The steps shown under STEPS SO FAR / REASONING STEPS (empty at the root). */
export function pathOf(request: ModelRequest): string[] {
  const section =
    /(?:STEPS SO FAR|REASONING STEPS):\n([\s\S]*?)(?:\n\n|$)/.exec(promptOf(request))?.[1] ?? '';
  return section === '(none yet)' ? [] : section.split('\n').map((line) => line.replace(/^\d+\. /, ''));
}

/** The candidate step of a rate_thought request. */
export function candidateOf(request: ModelRequest): string {
  return /CANDIDATE STEP[^\n]*:\n([^\n]*)/.exec(promptOf(request))?.[1] ?? '';
}

/** Whether a rate_thought request marks its candidate final. */
export function candidateIsFinal(request: ModelRequest): boolean {
  return promptOf(request).includes('(meant to complete the task)');
}

/** How many candidates a vote_thought request compares. */
export function candidateCount(request: ModelRequest): number {
  return promptOf(request).match(/^CANDIDATE \d+:/gm)?.length ?? 0;
}

/** A scripted tree: each step's children, which steps are final, and each step's score. */
export interface TreeScript {
  children: Record<string, string[]>;
  finals?: string[];
  scores?: Record<string, number>;
}

/**
 * A model that plays a scripted tree with propose + value: it proposes the children of the last step
 * (`''` is the root), rates each step by `scores` (default 1), and answers with the path it was shown.
 */
export function treeModel(script: TreeScript): ScriptedModel {
  const finals = new Set(script.finals ?? []);
  return new ScriptedModel([], {
    fallback: respond((request) => {
      const name = functionOf(request);
      if (name === 'propose_thoughts') {
        const children = script.children[pathOf(request).at(-1) ?? ''] ?? [];
        const thoughts = children.map((thought) => ({ thought, isFinal: finals.has(thought) }));
        return { toolCalls: [{ name, arguments: { thoughts } }] };
      }
      if (name === 'rate_thought') {
        const score = script.scores?.[candidateOf(request)] ?? 1;
        return { toolCalls: [{ name, arguments: { critique: 'scripted', score } }] };
      }
      if (name === 'final_answer') {
        return {
          toolCalls: [{ name, arguments: { answer: `answer from [${pathOf(request).join(' > ')}]` } }],
        };
      }
      throw new Error(`treeModel: unexpected call of ${name}`);
    }),
  });
}

/** Collects events of the given types. */
export function eventsOf(events: SwarmEvent[], type: string): SwarmEvent[] {
  return events.filter((event) => event.type === type);
}
