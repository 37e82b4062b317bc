import { ForestSwarm, Tree, TreeAgent } from '../src/index.js';
import { routingTrees } from '../src/test-helpers.js';
const seed = [
 ['Financial Services Tree', [['Financial Advisor', "I am a financial advisor specializing in investment planning, retirement strategies, and tax optimization for individuals and businesses."], ['Tax Expert', "I am a tax expert with deep knowledge of corporate taxation, Delaware incorporation benefits, and free tax filing options for businesses."], ['Retirement Planner', "I am a retirement planning specialist who helps individuals and businesses create comprehensive retirement strategies and investment plans."]]],
 ['Investment & Trading Tree', [['Stock Analyst', "I am a stock market analyst who provides insights on market trends, stock recommendations, and portfolio optimization strategies."], ['Investment Strategist', "I am an investment strategist specializing in portfolio diversification, risk management, and market analysis."], ['ROTH IRA Specialist', "I am a ROTH IRA specialist who helps individuals optimize their retirement accounts and tax advantages."]]],
] as const;
const f = new ForestSwarm({ trees: seed.map(([name, agents]) => new Tree({ name, agents: agents.map(([n, p]) => new TreeAgent({ name: n, systemPrompt: p, model: 'openai:unused' })) })) });
const tasks = ["How deep is the Pacific Ocean?", "Who helps individuals learn guitar?", "Our company is incorporated in Delaware, how do we do our taxes for free?", "What are the best investment strategies for retirement?", "How do I file taxes for my Delaware corporation?", "What's the current market outlook for tech stocks?"];
const r = await f.routeAll(tasks);
r.forEach((x, i) => console.log('seed', tasks[i], '->', x.status === 'fulfilled' ? `${x.value.agent} ${x.value.rule}` : 'none'));
const g = new ForestSwarm({ trees: routingTrees(() => 'openai:unused') });
for (const t of ['How do I center a div with CSS?', 'Book a taxi and fix the syntax of my React component']) {
  const x = (await g.routeAll([t]))[0]!;
  console.log('48', t, '->', x.status === 'fulfilled' ? `${x.value.agent} ${x.value.rule} runnerUp ${x.value.runnerUp?.agent}` : 'none');
}
const one = new ForestSwarm({ trees: [new Tree({ name: 'T', agents: [new TreeAgent({ name: 'Tax', systemPrompt: 'I am a tax expert.', model: 'openai:unused' })] })] });
console.log('one', (await one.routeAll(['A tax question']))[0]!.status);
