/**
 * HeavySwarm on a decision: one call writes a question for each role (research, analysis,
 * alternatives, verification), the four answer at the same time, and a synthesizer integrates them.
 * Pass `grok` as the first argument for the three-role Grok variant. With a model configured
 * (SWARM_MODEL, OPENAI_API_KEY or ANTHROPIC_API_KEY) the model plays every role; without one, a
 * scripted model does, so the flow runs offline.
 */
import { configuredModel, configureModelHint, type ModelLike, type ModelRequest } from '@swarm/core';
import { ScriptedModel } from '@swarm/core/testing';
import { HeavySwarm } from '@swarm/hierarchy';

const task = 'Should a 20-person SaaS company move its servers from AWS to rented bare metal?';
const roles = process.argv[2] === 'grok' ? 'grok' : 'default';
const configured = configuredModel();
const model: ModelLike = configured ?? scriptedRoles();

if (!configured)
  console.log(
    `No model configured: a scripted model plays every role.\nTo run for real: ${configureModelHint}\n`,
  );

const swarm = new HeavySwarm({ model, roles, timeoutMs: 120_000 });
const result = await swarm.run(task);

const [loop] = result.loops;
for (const answer of loop?.answers ?? []) {
  console.log(
    `${answer.role}\n  Q: ${answer.question}\n  A: ${answer.status === 'done' ? answer.output : `failed: ${answer.error}`}\n`,
  );
}
console.log(
  `Synthesis:\n${result.output}\n\nModel calls: ${result.llmCalls}, tokens: ${result.usage.totalTokens}`,
);

// What a model would say, scripted by the purpose of each call, so the example runs with no key.
function scriptedRoles(): ScriptedModel {
  const answers: Record<string, string> = {
    research:
      'Bare metal costs 40-60% less for steady compute; egress and managed databases are what AWS charges most for.',
    analysis: 'At $12k a month the saving is about $5k, roughly a third of one engineer spent on operations.',
    alternatives:
      'Reserved instances or savings plans cut 30% with no migration; a hybrid keeps databases managed.',
    verification:
      'Risks: no one on the team has run hardware on call; a migration takes a quarter of roadmap time.',
  };
  return new ScriptedModel([], {
    id: 'scripted-roles',
    fallback: {
      kind: 'respond',
      fn: (request: ModelRequest) => {
        const purpose = request.metadata?.purpose;
        if (purpose === 'questions') {
          const parameters = request.tools?.[0]?.parameters as {
            properties: { questions: { properties: object } };
          };
          const names = Object.keys(parameters.properties.questions.properties);
          const questions = Object.fromEntries(
            names.map((name) => [
              name,
              `From the ${name} angle: what matters most in leaving AWS for bare metal?`,
            ]),
          );
          return { text: '', toolCalls: [{ name: 'final_output', arguments: { questions } }] };
        }
        if (purpose === 'synthesis') {
          return 'Stay on AWS for now: the savings (about 40% of compute) do not yet pay for the on-call and hardware work a 20-person team would take on. Revisit above $30k a month.';
        }
        const role = request.metadata?.agent ?? '';
        return answers[role] ?? `(${role}) A scripted answer to: ${request.messages.at(-1)?.content}`;
      },
    },
  });
}
