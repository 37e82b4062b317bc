// CouncilAsAJudge: six judges (one per dimension) score a response from 0 to 10 with a rationale;
// an aggregator writes the evaluation report.
import { CouncilAsAJudge } from '@swarm/collective';
import { messageText } from '@swarm/core';
import { call, exampleModel } from './model.js';

const model = exampleModel((request) => {
  if (typeof request.toolChoice !== 'object') {
    return 'Overall: accurate and clear, but it skips the risks. Add one line on when a Roth IRA is a poor fit.';
  }
  const dimension =
    /Dimension: ([^:]+):/.exec(messageText(request.messages[0] ?? { content: '' }))?.[1] ?? '';
  const score = dimension === 'helpfulness' ? 6 : 8;
  return call(request, { score, rationale: `Scripted ${dimension} judgement.` });
});

const council = new CouncilAsAJudge({ model });

async function main(): Promise<void> {
  const result = await council.run({
    question: 'Should I open a Roth IRA?',
    response: 'Yes: contributions grow tax-free and qualified withdrawals are tax-free in retirement.',
  });
  for (const [dimension, s] of Object.entries(result.scores)) {
    console.log(`${dimension}: ${'score' in s ? `${s.score}/10 - ${s.rationale}` : `no score (${s.error})`}`);
  }
  console.log(`\nReport:\n${result.output}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
