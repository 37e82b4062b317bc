/**
 * Evals offline, no key: which Tree of Thoughts settings solve Game of 24 (the puzzles of
 * packages/tot/bench/data/game24.csv, with the programmatic strategies), and how accurately a forest
 * routes a labelled set of financial questions (data/routing.jsonl) with 'best' and 'first' routing.
 * With a model configured (SWARM_MODEL, OPENAI_API_KEY or ANTHROPIC_API_KEY) a model-backed Tree of
 * Thoughts joins the Game of 24 candidates. Both are scored exactly; the tables give each
 * candidate's mean with its 95% interval and a paired test between candidates.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configuredModel, configureModelHint, errorMessage } from '@swarm/core';
import {
  type Candidate,
  type EvalItem,
  exactMatch,
  formatTable,
  htmlReport,
  loadDataset,
  runExperiment,
} from '@swarm/evals';
import { ForestSwarm, Tree, TreeAgent } from '@swarm/forest';
import {
  checkGame24,
  game24Answerer,
  game24Evaluator,
  game24Generator,
  game24Task,
  TreeOfThoughts,
  type TreeOfThoughtsOptions,
} from '@swarm/tot';

/** Every 90th puzzle of the ranked set (easy to hard): 16 puzzles. */
function game24Items(): EvalItem<number[], string>[] {
  const csv = readFileSync(new URL('../../../packages/tot/bench/data/game24.csv', import.meta.url), 'utf8');
  const puzzles = csv
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => (line.split(',')[1] ?? '').split(' ').map(Number));
  return puzzles
    .filter((_, i) => i % 90 === 0)
    .map((numbers, i) => ({ input: numbers, expected: 'solved', metadata: { rank: i * 90 + 1 } }));
}

/** A candidate that solves one puzzle with a fresh Tree of Thoughts of the given settings. */
function totCandidate(settings: Partial<TreeOfThoughtsOptions<'final'>>) {
  return async (input: unknown) => {
    const numbers = input as number[];
    // Without a model the programmatic Game of 24 strategies play every part.
    const programmatic = settings.model
      ? {}
      : {
          generationStrategy: game24Generator(),
          evaluationStrategy: game24Evaluator(),
          answerStrategy: game24Answerer,
        };
    const tot = new TreeOfThoughts({ ...programmatic, ...settings });
    const answer = await tot.run(game24Task(numbers));
    return checkGame24(String(answer), numbers).ok ? 'solved' : 'unsolved';
  };
}

function financialForest(routing: 'best' | 'first'): ForestSwarm {
  const agent = (name: string, systemPrompt: string) =>
    new TreeAgent({ name, systemPrompt, model: 'gpt-5.4' });
  return new ForestSwarm({
    routing,
    trees: [
      new Tree({
        name: 'Financial Services Tree',
        agents: [
          agent(
            'Financial Advisor',
            'I am a financial advisor specializing in investment planning, retirement strategies, and tax optimization for individuals and businesses.',
          ),
          agent(
            'Tax Expert',
            'I am a tax expert with deep knowledge of corporate taxation, Delaware incorporation benefits, and free tax filing options for businesses.',
          ),
          agent(
            'Retirement Planner',
            'I am a retirement planning specialist who helps individuals and businesses create comprehensive retirement strategies and investment plans.',
          ),
        ],
      }),
      new Tree({
        name: 'Investment & Trading Tree',
        agents: [
          agent(
            'Stock Analyst',
            'I am a stock market analyst who provides insights on market trends, stock recommendations, and portfolio optimization strategies.',
          ),
          agent(
            'Investment Strategist',
            'I am an investment strategist specializing in portfolio diversification, risk management, and market analysis.',
          ),
          agent(
            'ROTH IRA Specialist',
            'I am a ROTH IRA specialist who helps individuals optimize their retirement accounts and tax advantages.',
          ),
        ],
      }),
    ],
  });
}

async function main(): Promise<void> {
  const model = configuredModel();
  const candidates: Record<string, Candidate> = {
    'dfs, every move': totCandidate({ searchAlgorithm: 'dfs', numThoughts: 36 }),
    'bfs, 5 moves, breadth 2': totCandidate({ searchAlgorithm: 'bfs', numThoughts: 5, breadth: 2 }),
    'bfs, 2 moves, breadth 1': totCandidate({ searchAlgorithm: 'bfs', numThoughts: 2, breadth: 1 }),
  };
  if (model) {
    // With a key: the model proposes, rates and answers.
    candidates['bfs, model-backed'] = totCandidate({
      model,
      searchAlgorithm: 'bfs',
      thoughtDescription: 'One arithmetic operation on two of the remaining numbers.',
      evaluationCriteria: 'Can the remaining numbers still reach 24?',
    });
  }
  console.log('Game of 24: Tree of Thoughts settings, programmatic strategies\n');
  if (!model) console.log(`(No model configured, so no model-backed candidate. ${configureModelHint})\n`);
  const game24 = await runExperiment({
    dataset: game24Items(),
    candidates,
    scorers: [exactMatch({ name: 'solved' })],
  });
  console.log(formatTable(game24));
  const report = join(tmpdir(), 'swarm-evals-game24.html');
  writeFileSync(report, htmlReport(game24, { title: 'Game of 24: Tree of Thoughts settings' }));
  console.log(`\nReport (quality against cost, every run): ${report}`);

  console.log('\n\nForest routing accuracy on a labelled set (routing needs no model)\n');
  const forests = { best: financialForest('best'), first: financialForest('first') };
  const routing = await runExperiment({
    dataset: await loadDataset(new URL('../data/routing.jsonl', import.meta.url).pathname),
    candidates: Object.fromEntries(
      Object.entries(forests).map(([name, forest]) => [
        `routing '${name}'`,
        async (input: unknown) => (await forest.route(String(input))).agent,
      ]),
    ),
    scorers: [exactMatch({ name: 'right agent' })],
  });
  console.log(formatTable(routing));
  for (const run of routing.runs.filter((r) => r.scores['right agent']?.score === 0)) {
    const item = routing.dataset.items[run.item];
    console.log(
      `  ${run.candidate}: "${item?.input}" went to ${run.output || run.error?.code}, not ${item?.expected}`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(`error: ${errorMessage(error)}`);
  process.exitCode = 1;
});
