// The seed's full example: six financial agents in two trees, one task, then three in a batch.
// With a model configured (SWARM_MODEL, OPENAI_API_KEY or ANTHROPIC_API_KEY) the agents answer;
// without one, the forest still routes (routing needs no model and no key) and prints why.
import { configuredModel, configureModelHint, errorMessage } from '@swarm/core';
import { ForestSwarm, Tree, TreeAgent } from '@swarm/forest';

const model = configuredModel();
// Building an agent never calls its model, so routing works with a placeholder when none is set.
const agentModel = model ?? 'gpt-5.4';

const agentsTree1 = [
  new TreeAgent({
    name: 'Financial Advisor',
    systemPrompt:
      'I am a financial advisor specializing in investment planning, retirement strategies, and tax optimization for individuals and businesses.',
    model: agentModel,
  }),
  new TreeAgent({
    name: 'Tax Expert',
    systemPrompt:
      'I am a tax expert with deep knowledge of corporate taxation, Delaware incorporation benefits, and free tax filing options for businesses.',
    model: agentModel,
  }),
  new TreeAgent({
    name: 'Retirement Planner',
    systemPrompt:
      'I am a retirement planning specialist who helps individuals and businesses create comprehensive retirement strategies and investment plans.',
    model: agentModel,
  }),
];

const agentsTree2 = [
  new TreeAgent({
    name: 'Stock Analyst',
    systemPrompt:
      'I am a stock market analyst who provides insights on market trends, stock recommendations, and portfolio optimization strategies.',
    model: agentModel,
  }),
  new TreeAgent({
    name: 'Investment Strategist',
    systemPrompt:
      'I am an investment strategist specializing in portfolio diversification, risk management, and market analysis.',
    model: agentModel,
  }),
  new TreeAgent({
    name: 'ROTH IRA Specialist',
    systemPrompt:
      'I am a ROTH IRA specialist who helps individuals optimize their retirement accounts and tax advantages.',
    model: agentModel,
  }),
];

const tree1 = new Tree({ name: 'Financial Services Tree', agents: agentsTree1 });
const tree2 = new Tree({ name: 'Investment & Trading Tree', agents: agentsTree2 });

const forest = new ForestSwarm({
  name: 'Financial Services Forest',
  description: 'A comprehensive financial services multi-agent system',
  trees: [tree1, tree2],
  verbose: model !== undefined,
});

const task = 'Our company is incorporated in Delaware, how do we do our taxes for free?';
const tasks = [
  'What are the best investment strategies for retirement?',
  'How do I file taxes for my Delaware corporation?',
  "What's the current market outlook for tech stocks?",
];

async function main(): Promise<void> {
  if (model) {
    const result = await forest.run(task);
    console.log(`\n${result.decision.agent}:\n${result.output}\n`);
    const results = await forest.batchedRun(tasks, { maxWorkers: 3 });
    results.forEach((settled, i) => {
      if (settled.status === 'fulfilled') {
        console.log(`Task ${i + 1} (${settled.value.decision.agent}):\n${settled.value.output}\n`);
      } else {
        console.log(`Task ${i + 1} failed: ${errorMessage(settled.reason)}\n`);
      }
    });
  } else {
    console.log('No model configured: showing where each task would go (routing needs no model).\n');
    const decisions = await forest.routeAll([task, ...tasks]);
    for (const settled of decisions) {
      if (settled.status === 'rejected') {
        console.log(`- no route: ${errorMessage(settled.reason)}`);
        continue;
      }
      const d = settled.value;
      const runnerUp = d.runnerUp ? `; runner-up ${d.runnerUp.agent} (${d.runnerUp.score})` : '';
      console.log(`- ${d.task}`);
      console.log(
        `    -> ${d.tree} / ${d.agent}: score ${d.score}, similarity ${d.similarity}, keywords [${d.keywordMatches.join(', ')}]${runnerUp}`,
      );
    }
    console.log(`\nTo get answers: ${configureModelHint}`);
  }
}

main().catch((error: unknown) => {
  console.error(`error: ${errorMessage(error)}`);
  process.exitCode = 1;
});
