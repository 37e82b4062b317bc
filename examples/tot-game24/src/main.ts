/**
 * The seed's quickstart: Tree of Thoughts on "Use 4, 9, 10 and 13 with + - * / to make 24."
 * With a model configured (SWARM_MODEL, OPENAI_API_KEY or ANTHROPIC_API_KEY) the model proposes,
 * rates and answers; without one, the programmatic Game of 24 strategies play every part.
 */
import { configuredModel, configureModelHint, errorMessage } from '@swarm/core';
import {
  checkGame24,
  game24Answerer,
  game24Evaluator,
  game24Generator,
  TreeOfThoughts,
  type TreeOfThoughtsOptions,
} from '@swarm/tot';

const task = 'Use 4, 9, 10 and 13 with + - * / to make 24.';
const numbers = [4, 9, 10, 13];

const model = configuredModel();

const search: TreeOfThoughtsOptions<'final'> = model
  ? {
      model,
      searchAlgorithm: 'dfs',
      thoughtDescription: 'One arithmetic operation on two of the remaining numbers.',
      evaluationCriteria: 'Can the remaining numbers still reach 24?',
    }
  : {
      searchAlgorithm: 'dfs',
      generationStrategy: game24Generator(),
      evaluationStrategy: game24Evaluator(),
      answerStrategy: game24Answerer,
      numThoughts: 36, // every legal move: the exact evaluator then never misses a solution
    };

async function main(): Promise<void> {
  if (!model) {
    console.log('No model configured: solving with the programmatic Game of 24 generator and evaluator.');
    console.log(`To let a model search: ${configureModelHint}\n`);
  }

  const tot = new TreeOfThoughts(search);
  const answer = await tot.run(task);
  const result = tot.lastResult!;

  console.log(`Task:   ${task}`);
  console.log(`Answer: ${answer}`);
  console.log('Steps:');
  for (const [i, step] of result.steps.entries()) console.log(`  ${i + 1}. ${step}`);
  console.log(`Check:  ${checkGame24(answer, numbers).reason}`);
  console.log(
    `Solved: ${result.solved}, nodes expanded: ${result.nodesExpanded}, model calls: ${result.llmCalls}`,
  );
}

main().catch((error: unknown) => {
  console.error(`error: ${errorMessage(error)}`);
  process.exitCode = 1;
});
