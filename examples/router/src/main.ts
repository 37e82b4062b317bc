// SwarmRouter: one parameter switches among topologies. The same three agents run a question as a
// SequentialWorkflow, then as a MajorityVoting, then with swarmType 'auto', where a model picks the
// topology per task and says why. The router knows topologies only through the descriptors below.
// With a model configured (SWARM_MODEL, OPENAI_API_KEY or ANTHROPIC_API_KEY) the agents are real;
// without one, a scripted model plays every part.
import { majorityVotingDescriptor, mixtureOfAgentsDescriptor } from '@swarm/collective';
import { Agent, configuredModel, configureModelHint, type ModelLike, type ModelRequest } from '@swarm/core';
import { autoReply, respond, ScriptedModel } from '@swarm/core/testing';
import { hierarchicalSwarmDescriptor } from '@swarm/hierarchy';
import { SwarmRouter } from '@swarm/router';
import { concurrentWorkflowDescriptor, sequentialWorkflowDescriptor } from '@swarm/workflow';

const configured = configuredModel();
const model: ModelLike = configured ?? offlineModel();
if (!configured)
  console.log(
    `No model configured: a scripted model plays every part.\nTo run it for real: ${configureModelHint}\n`,
  );

const agents = [
  new Agent({ name: 'researcher', instructions: 'List the key facts, briefly.', model }),
  new Agent({ name: 'analyst', instructions: 'Say what the facts mean, briefly.', model }),
  new Agent({ name: 'writer', instructions: 'Give the final answer in two sentences.', model }),
];
const topologies = [
  sequentialWorkflowDescriptor,
  concurrentWorkflowDescriptor,
  majorityVotingDescriptor,
  mixtureOfAgentsDescriptor,
  hierarchicalSwarmDescriptor,
];

try {
  for (const swarmType of ['SequentialWorkflow', 'MajorityVoting', 'auto']) {
    const router = new SwarmRouter({ agents, swarmType, topologies });
    const task = swarmType === 'MajorityVoting' ? 'Is 91 a prime number?' : 'Why do cats purr?';
    const result = await router.run(task);
    console.log(
      `swarmType ${swarmType} -> ran ${result.swarmType}${result.reason ? ` (${result.reason})` : ''}`,
    );
    console.log(`  ${task}\n  ${result.output.replace(/\n/g, '\n  ')}`);
    console.log(`  ${result.llmCalls} model calls, ${result.usage.totalTokens} tokens\n`);
  }
} catch (error) {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}

// Offline: the 'auto' choice picks a vote for yes/no questions and a pipeline otherwise; votes
// answer "no"; every other call gets a short scripted answer.
function offlineModel(): ScriptedModel {
  return new ScriptedModel([], {
    fallback: respond((request: ModelRequest) => {
      const forced = typeof request.toolChoice === 'object' ? request.toolChoice.name : undefined;
      if (forced === 'choose_topology') {
        return {
          toolCalls: [
            {
              name: forced,
              arguments: { swarmType: 'SequentialWorkflow', reason: 'An explanation built step by step.' },
            },
          ],
        };
      }
      if (forced === 'vote') {
        return {
          toolCalls: [
            { name: forced, arguments: { answer: 'No', confidence: 0.9, reasoning: '91 = 7 × 13.' } },
          ],
        };
      }
      return forced ? autoReply(request) : `(${request.metadata?.agent}) a short scripted answer.`;
    }),
  });
}
