import { type Agent, generateObject, nonEmptyAnswer, type RunContext, runMember } from '@swarm/core';
import { z } from 'zod';
import type { CoordinatedThoughtNode, EvaluatorRole, ThoughtEvaluation } from './coordinated-node.js';
import type { RolePlayer } from './coordinated-options.js';
import {
  evaluationPrompt,
  nextThoughtsPrompt,
  researchPrompt,
  roleSystemPrompts,
  type SynthesisNode,
  strategiesPrompt,
  synthesisPrompt,
} from './coordinated-prompts.js';
import type { CoordinatedRun } from './coordinated-run.js';

/** The Planner's answer: the thoughts it proposes (the validator checks each one). */
export const planSchema = z.object({
  thoughts: z.array(z.string()).describe('The proposed thoughts, one self-contained sentence each.'),
});

/** The Analyzer's and the Critic's answer (DESIGN 5.2): a score, a termination recommendation, the reasons. */
export const evaluationSchema = z.object({
  score: z.number().min(0).max(10).describe('0 = a dead end, 10 = a highly promising path.'),
  terminate: z.boolean().describe('True if exploration of this path should stop.'),
  reasons: z.array(z.string()).describe('Why: the main points of the analysis or critique.'),
});

/**
 * How many thoughts the Planner is asked for from a node: the initial strategies from the root;
 * from any other node the seed's dynamic count, 2, one more from a score of 8, one fewer below 4.
 */
export function thoughtsToGenerate(node: CoordinatedThoughtNode, initialThoughts: number): number {
  if (node.parent === null) return initialThoughts;
  const score = node.score ?? 0;
  return Math.max(1, 2 + (score >= 8 ? 1 : 0) - (score < 4 ? 1 : 0));
}

/** The most thoughts asked for from a node below the root (a parent scoring 8 or more). */
export const MAX_NEXT_THOUGHTS = 3;

/** The Planner: the node's next thoughts (the problem's strategies from the root); `undefined` if the call failed. */
export async function plan(
  run: CoordinatedRun,
  node: CoordinatedThoughtNode,
  count: number,
): Promise<string[] | undefined> {
  const prompt =
    node.parent === null
      ? strategiesPrompt(run.task, count)
      : nextThoughtsPrompt({ task: run.task, path: node.path, score: node.score, count });
  const answer = await run.attempt('planner', node, (context) =>
    structured(run.options.planner, 'planner', context, {
      schema: planSchema,
      name: node.parent === null ? 'propose_strategies' : 'propose_thoughts',
      description: 'Give the proposed thoughts.',
      prompt,
      purpose: 'plan',
      maxRepairs: run.options.maxRepairs,
    }),
  );
  return answer?.thoughts;
}

/** The Researcher: its findings on the node, `undefined` when skipped or failed. */
export async function research(
  run: CoordinatedRun,
  node: CoordinatedThoughtNode,
): Promise<string | undefined> {
  const researcher = run.options.researcher;
  if (!researcher) return undefined;
  const prompt = researchPrompt({ task: run.task, path: node.path });
  return run.attempt('researcher', node, async (context) => (await play(researcher, prompt, context)).trim());
}

/** The Analyzer or the Critic: its validated evaluation of the node, `undefined` if the call failed. */
export async function evaluate(
  run: CoordinatedRun,
  node: CoordinatedThoughtNode,
  role: EvaluatorRole,
): Promise<ThoughtEvaluation | undefined> {
  const prompt = evaluationPrompt({ task: run.task, path: node.path, role, research: node.research });
  const verdict = await run.attempt(role, node, (context) =>
    structured(run.options[role], role, context, {
      schema: evaluationSchema,
      name: role === 'analyzer' ? 'analyze_thought' : 'critique_thought',
      description: 'Give your evaluation of the thought.',
      prompt,
      purpose: role === 'analyzer' ? 'analyze' : 'critique',
      maxRepairs: run.options.maxRepairs,
    }),
  );
  return verdict && { evaluator: role, ...verdict };
}

/** The Synthesizer: the final answer from the selected nodes. A failure (budget included) propagates. */
export async function synthesize(run: CoordinatedRun, nodes: SynthesisNode[]): Promise<string> {
  const prompt = synthesisPrompt(run.task, nodes);
  const context = run.context('synthesizer');
  const player = run.options.synthesizer;
  const name = player.kind === 'agent' ? player.agent.name : player.topology.name;
  return nonEmptyAnswer(name, context, () => play(player, prompt, context));
}

// A structured role's call: the agent's model and settings, its instructions or the role's prompt.
async function structured<S extends z.ZodObject>(
  agent: Agent<unknown>,
  role: keyof typeof roleSystemPrompts,
  context: RunContext,
  request: {
    schema: S;
    name: string;
    description: string;
    prompt: string;
    purpose: string;
    maxRepairs: number;
  },
): Promise<z.output<S>> {
  const { object } = await generateObject(agent.model, {
    ...request,
    system: agent.instructions ?? roleSystemPrompts[role],
    ...(agent.temperature !== undefined && { temperature: agent.temperature }),
    ...(agent.maxTokens !== undefined && { maxTokens: agent.maxTokens }),
    agent: agent.name,
    context,
  });
  return object;
}

// A free-text role's turn: an Agent runs in the role's context (with its per-run tools), a Topology nested in it.
async function play(player: RolePlayer, prompt: string, context: RunContext): Promise<string> {
  if (player.kind === 'topology') return (await runMember(player.topology, prompt, context)).output;
  const tools = player.tools.length > 0 ? { tools: player.tools } : {};
  return (await runMember(player.agent, prompt, context, tools)).output;
}
