import { z } from 'zod';
import { votePrompt } from './prompts.js';
import type { SearchRun } from './search-run.js';
import type { ThoughtNode } from './thought-node.js';

// One schema per number of candidates, made once: core converts a schema to JSON Schema once per
// schema object.
const voteSchemas = new Map<number, ReturnType<typeof makeVoteSchema>>();

function makeVoteSchema(candidates: number) {
  return z.object({
    analysis: z.string().describe('A short comparison of the candidates.'),
    choice: z.number().int().min(1).max(candidates).describe('The number of the most promising candidate.'),
  });
}

function voteSchema(candidates: number) {
  const cached = voteSchemas.get(candidates);
  if (cached !== undefined) return cached;
  const schema = makeVoteSchema(candidates);
  voteSchemas.set(candidates, schema);
  return schema;
}

/**
 * `'vote'`: the evaluator sees every candidate at once and votes for the best, `nEvaluateSamples`
 * times; a score is votes / the leader's votes. A lone candidate scores 1 without a call.
 */
export async function voteEvaluate(run: SearchRun, candidates: ThoughtNode[]): Promise<void> {
  const [first] = candidates;
  if (!first) return;
  if (candidates.length === 1) {
    first.score = 1;
    first.evaluation = 'The only candidate: it scores 1 without a vote.';
    return;
  }
  const schema = voteSchema(candidates.length);
  const prompt = votePrompt({
    task: run.task,
    paths: candidates.map((c) => c.steps),
    evaluationCriteria: run.options.evaluationCriteria,
  });
  // The comparison's calls are charged to the first candidate's node in warnings.
  const ballots = await run.samples(run.options.nEvaluateSamples, 'evaluate', first, {
    schema,
    name: 'vote_thought',
    description: 'Vote for the best candidate.',
    prompt,
  });
  const votes = candidates.map(() => 0);
  for (const ballot of ballots) if (ballot) votes[ballot.choice - 1]! += 1;
  const cast = votes.reduce((sum, v) => sum + v, 0);
  if (cast === 0 && run.interruption) return;
  const leader = Math.max(...votes);
  candidates.forEach((node, i) => {
    const mine = votes[i]!;
    node.score = leader === 0 ? 0 : mine / leader;
    node.evaluation = cast === 0 ? 'Every vote failed.' : `${mine} of ${cast} votes (leader: ${leader}).`;
  });
}
