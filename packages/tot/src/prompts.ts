/** The default system prompt of every model call; the step, evaluation and answer instructions travel in each prompt. */
export const TREE_OF_THOUGHTS_SYSTEM_PROMPT = [
  'You are a careful problem solver who reasons one small, checkable step at a time.',
  'You take part in a tree search: you may be asked to propose next steps, to judge steps, or to write',
  'the final answer from a path of steps. Follow the instructions of each request exactly and answer',
  'only by calling the function it asks for.',
].join(' ');

/** What the generation prompt needs to know. */
export interface GenerationPromptInput {
  task: string;
  steps: string[];
  depth: number;
  maxDepth: number;
  thoughtDescription: string | undefined;
}

/** Asks for `count` distinct next steps in one call (`'propose'`). */
export function proposePrompt(input: GenerationPromptInput & { count: number }): string {
  const ask =
    input.count === 1
      ? 'Propose one possible next step.'
      : `Propose ${input.count} distinct possible next steps. They are alternatives to each other, not a sequence: each one continues directly from the steps so far.`;
  return [...context(input), `${ask} ${finality(input)}`].join('\n\n');
}

/** Asks for one next step (`'sample'`: several independent calls give variety). */
export function samplePrompt(input: GenerationPromptInput): string {
  return [...context(input), `Write the single best next step. ${finality(input)}`].join('\n\n');
}

/** Asks for a critique and then a score of one candidate (`'value'`). */
export function valuePrompt(input: {
  task: string;
  steps: string[];
  isFinal: boolean;
  evaluationCriteria: string | undefined;
}): string {
  const before = input.steps.slice(0, -1);
  return [
    `TASK:\n${input.task}`,
    `STEPS BEFORE THE CANDIDATE:\n${numbered(before)}`,
    `CANDIDATE STEP${input.isFinal ? ' (meant to complete the task)' : ''}:\n${input.steps.at(-1) ?? ''}`,
    ...criteria(input.evaluationCriteria),
    'Judge the candidate step in the context of the steps before it. Write your critique first, then a score from 0 to 1: 1 when the step is correct and clearly leads toward solving the task (or solves it), 0 when it is wrong or a dead end.',
  ].join('\n\n');
}

/** Shows every candidate path and asks for a vote for the most promising one (`'vote'`). */
export function votePrompt(input: {
  task: string;
  paths: string[][];
  evaluationCriteria: string | undefined;
}): string {
  const candidates = input.paths.map((path, i) => `CANDIDATE ${i + 1}:\n${numbered(path)}`).join('\n\n');
  return [
    `TASK:\n${input.task}`,
    `Each candidate below is a path of reasoning steps; its last step is the new one.\n\n${candidates}`,
    ...criteria(input.evaluationCriteria),
    'Compare the candidates, analyse them first, then vote for the single most promising one by its number.',
  ].join('\n\n');
}

/** Asks for the final answer from the best path (complete or partial). */
export function answerPrompt(input: { task: string; steps: string[]; solved: boolean }): string {
  const instruction = input.solved
    ? 'These steps complete the task. Write the final answer they reach, as the task asks for it.'
    : 'These steps are the most promising partial path found; they may be incomplete. Complete the task from them and write the final answer, as the task asks for it.';
  return [`TASK:\n${input.task}`, `REASONING STEPS:\n${numbered(input.steps)}`, instruction].join('\n\n');
}

function context(input: GenerationPromptInput): string[] {
  return [
    `TASK:\n${input.task}`,
    `STEPS SO FAR:\n${numbered(input.steps)}`,
    ...(input.thoughtDescription ? [`WHAT ONE STEP LOOKS LIKE:\n${input.thoughtDescription}`] : []),
  ];
}

function finality(input: { depth: number; maxDepth: number }): string {
  const position = `This is step ${input.depth} of at most ${input.maxDepth}.`;
  return input.depth >= input.maxDepth
    ? `${position} It is the last step allowed, so it must complete the task.`
    : `${position} Mark a step final only when it completes the task.`;
}

function criteria(evaluationCriteria: string | undefined): string[] {
  return evaluationCriteria ? [`HOW TO JUDGE PROGRESS:\n${evaluationCriteria}`] : [];
}

function numbered(steps: string[]): string {
  return steps.length === 0 ? '(none yet)' : steps.map((step, i) => `${i + 1}. ${step}`).join('\n');
}
