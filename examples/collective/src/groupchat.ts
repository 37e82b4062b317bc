// GroupChat (seed 001, section 4): every round each agent privately bids respond({ score, message });
// the single highest bid above the threshold (after the recency penalty) is posted; a round with
// no such bid ends the chat.
import { GroupChat } from '@swarm/collective';
import { Agent, type SwarmEvent } from '@swarm/core';
import { agentOf, call, exampleModel } from './model.js';

// Offline, each agent has a few things to say, then bids 0.
const offlineLines: Record<string, [number, string][]> = {
  chef: [
    [0.9, 'A cooking class by the lake: everyone makes their own pasta.'],
    [0.4, 'I can book the kitchen for Friday.'],
    [0.3, 'Vegetarian options too.'],
  ],
  runner: [
    [0.7, 'Start with a 5 km trail run before lunch.'],
    [0.8, 'Let us make the run optional, with a walking group.'],
    [0.2, 'Sounds good.'],
  ],
  planner: [
    [0.6, 'Budget is 150 per person; the lake venue fits.'],
    [0.45, 'The lake venue has a kitchen.'],
    [0.85, 'Plan: walk or run at 10, pasta class at 12, free afternoon; 150 per person.'],
  ],
};
const said = new Map<string, number>();
const model = exampleModel((request) => {
  const who = agentOf(request);
  const n = said.get(who) ?? 0;
  said.set(who, n + 1);
  const [score, message] = offlineLines[who]?.[n] ?? [0, 'Nothing to add.'];
  return call(request, { score, message });
});

const chat = new GroupChat({
  agents: [
    new Agent({ name: 'chef', instructions: 'You are a chef.', model }),
    new Agent({ name: 'runner', instructions: 'You love outdoor sport.', model }),
    new Agent({ name: 'planner', instructions: 'You organize events on a budget.', model }),
  ],
  threshold: 0.5,
  maxMessages: 6,
});

function printBids(event: SwarmEvent): void {
  if (event.type !== 'groupchat.bid') return;
  const bids = event.bids as { agent: string; score: number; adjusted: number }[];
  console.log(
    `round ${event.round}: ${bids.map((b) => `${b.agent} ${b.score.toFixed(2)}→${b.adjusted.toFixed(2)}`).join(', ')}`,
  );
}

async function main(): Promise<void> {
  const result = await chat.run('Plan a one-day team offsite.', { onEvent: printBids });
  console.log('');
  for (const m of result.messages) console.log(`${m.agent}: ${m.content}`);
  console.log(`\nEnded by: ${result.endedBy} after ${result.rounds.length} rounds`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
