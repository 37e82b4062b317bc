/** The specialists of the seed's team, in the order results list them. */
export type RoleName = 'planner' | 'researcher' | 'analyzer' | 'critic' | 'synthesizer';

/** The system prompt of each built-in role (a role given as an Agent keeps its own instructions). */
export const roleSystemPrompts: Record<RoleName, string> = {
  planner:
    'You are the Planner of a team exploring a problem as a tree of thoughts. A thought is an intermediate step, a partial solution, a sub-topic or a question worth answering. You propose distinct, concrete thoughts that explore different directions, and answer only by calling the function you are asked to call.',
  researcher:
    'You are the Researcher of a team exploring a problem as a tree of thoughts. Use your tools to gather facts, data and known issues relevant to the thought you are given, then report your findings briefly, citing where they come from. Report only what your tools found.',
  analyzer:
    "You are the Analyzer of a team exploring a problem as a tree of thoughts. You judge a thought's soundness, feasibility and logical consistency, and its promise for reaching a solution, and answer only by calling the function you are asked to call.",
  critic:
    'You are the Critic of a team exploring a problem as a tree of thoughts. You look for flaws, biases, weak assumptions and dead ends in a thought, judge whether the path is worth pursuing further, and answer only by calling the function you are asked to call.',
  synthesizer:
    'You are the Synthesizer of a team that explored a problem as a tree of thoughts. You integrate the most promising thoughts into one coherent, direct final answer to the problem.',
};

/** What every prompt about one node shows: the problem and the path down to the node. */
export interface NodeContext {
  task: string;
  path: string[];
}

/** Asks the Planner for the problem's initial strategies. */
export function strategiesPrompt(task: string, count: number): string {
  return [
    `PROBLEM:\n${task}`,
    `Propose ${count} distinct high-level strategies to approach the problem. Each is one concise sentence describing an approach, and each explores a different direction.`,
  ].join('\n\n');
}

/** Asks the Planner for the next thoughts within one active path. */
export function nextThoughtsPrompt(input: NodeContext & { score: number | null; count: number }): string {
  const score = input.score === null ? '' : ` The last thought scored ${input.score.toFixed(1)} out of 10.`;
  return [
    `PROBLEM:\n${input.task}`,
    `PATH SO FAR:\n${numbered(input.path)}`,
    `Propose ${input.count} distinct, concrete next thoughts that continue this path (intermediate steps, partial solutions, sub-topics or specific questions). They are alternatives to each other, each continuing directly from the last thought.${score}`,
  ].join('\n\n');
}

/** Asks the Researcher to gather information on one thought. */
export function researchPrompt(input: NodeContext): string {
  return [
    `PROBLEM:\n${input.task}`,
    `PATH SO FAR:\n${numbered(input.path)}`,
    `Gather relevant information for the last thought with your tools: facts, data, and potential issues. Report your findings.`,
  ].join('\n\n');
}

/** Asks the Analyzer or the Critic for its evaluation of one thought, given the research. */
export function evaluationPrompt(
  input: NodeContext & { role: 'analyzer' | 'critic'; research: string | null },
): string {
  const ask =
    input.role === 'analyzer'
      ? "Analyze the last thought's soundness, feasibility and logical consistency, and its promise for reaching a solution."
      : 'Critically evaluate the last thought: its flaws, biases, weak assumptions, and whether this path is worth pursuing further.';
  return [
    `PROBLEM:\n${input.task}`,
    `PATH SO FAR:\n${numbered(input.path)}`,
    `RESEARCH FINDINGS:\n${input.research ?? '(no research was done for this thought)'}`,
    `${ask} Score it from 0 (a dead end) to 10 (highly promising), say whether exploration of this path should stop (terminate: true when it is a dead end or already complete), and give your reasons.`,
  ].join('\n\n');
}

/** One node the Synthesizer works from. */
export interface SynthesisNode {
  id: string;
  score: number;
  path: string[];
}

/** Asks the Synthesizer for the final answer from the selected high-scoring thoughts. */
export function synthesisPrompt(task: string, nodes: SynthesisNode[]): string {
  const thoughts =
    nodes.length === 0
      ? '(no thought was evaluated: answer from the problem alone)'
      : nodes
          .map(
            (n) =>
              `${n.id} (score ${n.score.toFixed(1)}/10):\n${n.path.map((t, i) => `  ${i + 1}. ${t}`).join('\n')}`,
          )
          .join('\n\n');
  return [
    `PROBLEM:\n${task}`,
    `HIGH-SCORING THOUGHTS, EACH WITH ITS PATH:\n${thoughts}`,
    'Integrate the insights of these thoughts into one comprehensive, coherent final answer that addresses the problem directly.',
  ].join('\n\n');
}

function numbered(path: string[]): string {
  return path.map((thought, i) => `${i + 1}. ${thought}`).join('\n');
}
