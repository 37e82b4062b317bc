import { join } from 'node:path';
import {
  configureModelHint,
  errorMessage,
  RunContext,
  SwarmError,
  type SwarmEvent,
  type TopologyResult,
} from '@swarm/core';
import { ForestSwarm, Tree, TreeAgent } from '@swarm/forest';
import { loadSwarmSpec } from '@swarm/router';
import { checkGame24, game24Answerer, game24Evaluator, game24Generator, TreeOfThoughts } from '@swarm/tot';
import { CliError } from './cli-error.js';
import { defaultModel } from './default-model.js';
import { demoSpecs } from './demo-specs.js';
import { prepareOutputDir, writeOutput } from './output-path.js';
import { topologies } from './registry.js';
import { htmlReport } from './report/html-report.js';

/** Where the demo's reports went (or why one was not written), for the closing lines. */
interface Written {
  title: string;
  path: string;
  problem?: string;
}

/**
 * `swarm demo`: with a model, a short run of each registered topology; without one, what truly
 * works offline (forest routing with the local embedder, Tree of Thoughts on a Game of 24 puzzle
 * with the programmatic strategies), each with its HTML report, then how to add a model. The
 * `--out` directory is made and checked before the first model call; each answer is printed
 * before its report is written, and a report that cannot be written fails the command at the end.
 */
export async function demoCommand(
  flags: { out: string; model?: string },
  out: NodeJS.WritableStream,
): Promise<void> {
  const unusable = prepareOutputDir('--out', flags.out);
  if (unusable) throw new CliError(unusable, 2);
  const found = await defaultModel(flags.model);
  const written: Written[] = [];
  const failed: string[] = [];
  if (found) {
    out.write(`Model: ${found.model} (from ${found.source})\n\n`);
    for (const spec of demoSpecs()) {
      if (!topologies.some((d) => d.type === spec.topology)) continue;
      const events: SwarmEvent[] = [];
      let result: TopologyResult | undefined;
      let error: string | undefined;
      out.write(`${spec.topology}: ${spec.task}\n`);
      try {
        const { topology } = loadSwarmSpec(spec, { topologies, defaultModel: found.model });
        result = await topology.run(spec.task!, {
          onEvent: (e) => events.push(e),
          budget: { maxCalls: 30 },
        });
        if (!result.output.trim()) {
          // An empty answer is no demo: say so in one line, like a failure.
          const why = result.interrupted ? `interrupted (${result.interruptionReason})` : 'an empty answer';
          throw new SwarmError('NO_ANSWER', `the run ended with ${why} after ${result.llmCalls} call(s)`);
        }
        out.write(
          `  ${result.output.split('\n').join('\n  ')}\n  (${result.llmCalls} calls, ${result.usage.totalTokens} tokens)\n\n`,
        );
      } catch (thrown) {
        const code = SwarmError.isInstance(thrown) ? `${thrown.code}: ` : '';
        error = `${code}${errorMessage(thrown).split('\n')[0]}`;
        failed.push(spec.topology);
        out.write(`  failed: ${error}\n\n`);
      }
      written.push(report(flags.out, spec.topology, spec.task!, events, result, error));
    }
  } else {
    out.write('No model configured: running what works offline.\n\n');
    written.push(await forestRouting(flags.out, out));
    written.push(await game24(flags.out, out));
    out.write(`To run every topology with a model: ${configureModelHint}\n`);
  }
  out.write('\nReports:\n');
  for (const w of written) out.write(`  ${w.title}: ${w.problem ?? w.path}\n`);
  const unwritten = written.filter((w) => w.problem !== undefined);
  if (failed.length > 0 || unwritten.length > 0) {
    throw new CliError(
      [
        ...(failed.length > 0 ? [`${failed.length} demo(s) failed: ${failed.join(', ')} (see above)`] : []),
        ...unwritten.map((w) => w.problem!),
      ].join('\n'),
      1,
    );
  }
}

const financialAgents = [
  [
    'Financial Advisor',
    'Financial Services',
    'I am a financial advisor specializing in investment planning, retirement strategies, and tax optimization for individuals and businesses.',
  ],
  [
    'Tax Expert',
    'Financial Services',
    'I am a tax expert with deep knowledge of corporate taxation, Delaware incorporation benefits, and free tax filing options for businesses.',
  ],
  [
    'Retirement Planner',
    'Financial Services',
    'I am a retirement planning specialist who helps individuals and businesses create comprehensive retirement strategies and investment plans.',
  ],
  [
    'Stock Analyst',
    'Investment & Trading',
    'I am a stock market analyst who provides insights on market trends, stock recommendations, and portfolio optimization strategies.',
  ],
  [
    'Investment Strategist',
    'Investment & Trading',
    'I am an investment strategist specializing in portfolio diversification, risk management, and market analysis.',
  ],
  [
    'ROTH IRA Specialist',
    'Investment & Trading',
    'I am a ROTH IRA specialist who helps individuals optimize their retirement accounts and tax advantages.',
  ],
] as const;

const seedTasks = [
  'Our company is incorporated in Delaware, how do we do our taxes for free?',
  'What are the best stocks to invest in for long-term growth?',
  'How should I diversify my portfolio to manage risk?',
  'How do I maximize the tax advantages of my Roth IRA?',
];

// Routing needs no model: the seed's six agents, the seed's kind of tasks, the local embedder.
async function forestRouting(dir: string, out: NodeJS.WritableStream): Promise<Written> {
  const trees = ['Financial Services', 'Investment & Trading'].map(
    (name) =>
      new Tree({
        name: `${name} Tree`,
        agents: financialAgents
          .filter(([, tree]) => tree === name)
          .map(([agent, , systemPrompt]) => new TreeAgent({ name: agent, systemPrompt, model: 'gpt-5.4' })),
      }),
  );
  const forest = new ForestSwarm({ name: 'Financial Services Forest', trees });
  const events: SwarmEvent[] = [];
  const context = new RunContext({ topology: forest.type, onEvent: (e) => events.push(e) });
  context.emit({ type: 'run.start', tasks: seedTasks.length, note: 'routing only: no model configured' });
  out.write('Forest routing (local embedder, no model call):\n');
  for (const task of seedTasks) {
    const decision = await forest.route(task);
    context.emit({ type: 'forest.route', agent: decision.agent, task, decision });
    out.write(
      `  ${task}\n    -> ${decision.tree} / ${decision.agent} (score ${decision.score.toFixed(3)})\n`,
    );
  }
  context.emit({ type: 'run.end', usage: context.usage, llmCalls: 0 });
  out.write('\n');
  const result: TopologyResult = {
    output: 'Routing decisions only (no model configured).',
    usage: context.usage,
    llmCalls: 0,
  };
  return report(dir, 'ForestSwarm routing', seedTasks.join(' | '), events, result);
}

async function game24(dir: string, out: NodeJS.WritableStream): Promise<Written> {
  const task = 'Use 4, 9, 10 and 13 with + - * / to make 24.';
  const tot = new TreeOfThoughts({
    searchAlgorithm: 'dfs',
    generationStrategy: game24Generator(),
    evaluationStrategy: game24Evaluator(),
    answerStrategy: game24Answerer,
    numThoughts: 36, // every legal move: the exact evaluator then never misses a solution
  });
  const events: SwarmEvent[] = [];
  const result = await tot.search(task, { onEvent: (e) => events.push(e) });
  out.write(`Tree of Thoughts, Game of 24 (programmatic strategies):\n  ${task}\n`);
  out.write(
    `  -> ${result.output} (${checkGame24(result.output, [4, 9, 10, 13]).reason}); ${result.nodesExpanded} nodes expanded\n\n`,
  );
  return report(dir, 'TreeOfThoughts Game of 24', task, events, result);
}

function report(
  dir: string,
  title: string,
  task: string,
  events: SwarmEvent[],
  result: TopologyResult | undefined,
  error?: string,
): Written {
  const path = join(dir, `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.html`);
  const problem = writeOutput(
    { option: '--out', path },
    htmlReport({ title, task, events, ...(result && { result }), ...(error !== undefined && { error }) }),
  );
  return { title, path, ...(problem !== undefined && { problem }) };
}
