// DebateWithJudge: pro and con argue over a fixed proposition; after each round the judge gives
// { winner, synthesis, confidence, converged } and stops the debate once it has converged.
import { DebateWithJudge } from '@swarm/collective';
import { Agent } from '@swarm/core';
import { agentOf, call, exampleModel } from './model.js';

let verdicts = 0;
const model = exampleModel((request) => {
  const who = agentOf(request);
  if (who === 'judge') {
    verdicts += 1;
    return call(request, {
      winner: verdicts === 1 ? 'pro' : 'tie',
      synthesis:
        'Remote work suits focused work; offices suit onboarding and collaboration. A hybrid week captures both.',
      confidence: 0.6 + 0.1 * verdicts,
      converged: verdicts >= 2,
    });
  }
  return who === 'pro'
    ? 'Remote work removes commutes and gives deep-focus time; output studies show no loss in productivity.'
    : 'Offices speed up onboarding and unplanned collaboration; juniors learn faster next to seniors.';
});

const debate = new DebateWithJudge({
  pro: new Agent({ name: 'pro', instructions: 'You argue for the proposition.', model }),
  con: new Agent({ name: 'con', instructions: 'You argue against the proposition.', model }),
  judge: new Agent({ name: 'judge', instructions: 'You are an impartial judge.', model }),
  maxLoops: 3,
});

async function main(): Promise<void> {
  const result = await debate.run('Remote work is better than office work.');
  result.rounds.forEach((round, i) => {
    console.log(`Round ${i + 1}`);
    console.log(`  pro: ${'output' in round.pro ? round.pro.output : round.pro.error}`);
    console.log(`  con: ${'output' in round.con ? round.con.output : round.con.error}`);
    console.log(
      `  judge: ${'winner' in round.verdict ? `${round.verdict.winner} (${round.verdict.confidence})` : round.verdict.error}`,
    );
  });
  console.log(`\nEnded by: ${result.endedBy}. Verdict: ${result.verdict.winner}\n${result.output}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
