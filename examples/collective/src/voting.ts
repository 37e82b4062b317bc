// MajorityVoting: five agents answer a short question with { answer, confidence, reasoning };
// the answers are normalized and counted, and a consensus agent writes the final text.
import { MajorityVoting } from '@swarm/collective';
import { Agent } from '@swarm/core';
import { agentOf, call, exampleModel } from './model.js';

const offlineVotes: Record<string, [string, number]> = {
  v1: ['Canberra', 0.9],
  v2: ['canberra.', 0.8],
  v3: ['Sydney', 0.6],
  v4: ['Canberra', 0.7],
  v5: ['Melbourne', 0.3],
};
const model = exampleModel((request) => {
  const vote = offlineVotes[agentOf(request)];
  if (vote) return call(request, { answer: vote[0], confidence: vote[1], reasoning: 'From memory.' });
  return 'The capital of Australia is Canberra (3 of 5 votes), chosen in 1908 as a compromise between Sydney and Melbourne.';
});

const voting = new MajorityVoting({
  agents: Object.keys(offlineVotes).map(
    (name) => new Agent({ name, instructions: 'Answer briefly.', model }),
  ),
  consensusAgent: new Agent({
    name: 'consensus',
    instructions: 'Write the final answer from the vote.',
    model,
  }),
});

async function main(): Promise<void> {
  const result = await voting.run('What is the capital of Australia?');
  for (const v of result.votes) console.log(`${v.agent}: ${v.answer} (confidence ${v.confidence})`);
  console.log('\nTally:');
  for (const t of result.tally) console.log(`  ${t.answer}: ${t.count} (${t.agents.join(', ')})`);
  console.log(`\nWinner: ${result.winner}\n${result.output}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
