// LLMCouncil: members answer, rank each other's anonymized answers (never their own), the ranks
// are aggregated by mean rank, and a chairman who sees only anonymous ids writes the final answer.
import { LLMCouncil } from '@swarm/collective';
import { Agent, messageText } from '@swarm/core';
import { agentOf, call, exampleModel } from './model.js';

const offlineAnswers: Record<string, string> = {
  physicist:
    'Sunlight scatters off air molecules; short (blue) wavelengths scatter most (Rayleigh scattering).',
  poet: 'The sky borrows the ocean’s colour.',
  teacher: 'Air scatters blue light more than red, so blue reaches our eyes from every direction.',
};
const model = exampleModel((request) => {
  if (typeof request.toolChoice === 'object') {
    // Offline rankers prefer answers that mention scattering.
    const content = messageText(request.messages[0] ?? { content: '' });
    const ids = [...content.matchAll(/Response ([A-Z]\d*):\n(.*)/g)].map((m) => ({ id: m[1]!, text: m[2]! }));
    const score = (text: string) => (/scatter/i.test(text) ? 1 : 0);
    return call(request, { ranking: ids.sort((a, b) => score(b.text) - score(a.text)).map((x) => x.id) });
  }
  return (
    offlineAnswers[agentOf(request)] ??
    'Blue light scatters most in air (Rayleigh scattering), so the sky looks blue.'
  );
});

const council = new LLMCouncil({
  members: Object.keys(offlineAnswers).map(
    (name) => new Agent({ name, instructions: `You are a ${name}.`, model }),
  ),
  chairman: new Agent({
    name: 'chairman',
    instructions: 'You write the final answer for the council.',
    model,
  }),
});

async function main(): Promise<void> {
  const result = await council.run('Why is the sky blue?');
  for (const a of result.answers) console.log(`${a.id} (${a.member}): ${a.output}`);
  console.log('\nRankings:');
  for (const r of result.rankings) console.log(`  ${r.member}: ${r.ranking.join(' > ')}`);
  console.log('\nAggregate (mean rank, 1 = best):');
  for (const a of result.aggregate) console.log(`  ${a.id}: ${a.score ?? 'not ranked'}`);
  console.log(`\nChairman:\n${result.output}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
