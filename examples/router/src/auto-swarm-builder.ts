// AutoSwarmBuilder: from a task, a model designs the agents and picks a topology; the design is
// checked against the topology's descriptor and repaired until it can be built. design() returns
// it as plain JSON (saved here to auto-swarm-design.json); run() builds it and runs the task.
// With a model configured the design is the model's; without one, a scripted design is used.
import { writeFileSync } from 'node:fs';
import { configuredModel, configureModelHint, type ModelLike, type ModelRequest } from '@swarm/core';
import { respond, ScriptedModel } from '@swarm/core/testing';
import { AutoSwarmBuilder, loadSwarmSpec } from '@swarm/router';
import {
  agentRearrangeDescriptor,
  concurrentWorkflowDescriptor,
  sequentialWorkflowDescriptor,
} from '@swarm/workflow';

const configured = configuredModel();
const model: ModelLike = configured ?? offlineModel();
if (!configured)
  console.log(
    `No model configured: a scripted design and scripted agents.\nTo run it for real: ${configureModelHint}\n`,
  );

const topologies = [sequentialWorkflowDescriptor, concurrentWorkflowDescriptor, agentRearrangeDescriptor];
const task = 'Write a one-paragraph product description for a solar-powered bike lamp, checked for clarity.';

try {
  const builder = new AutoSwarmBuilder({ model, topologies });
  const design = await builder.design(task);
  writeFileSync('auto-swarm-design.json', `${JSON.stringify(design, null, 2)}\n`);
  console.log(
    `Design (saved to auto-swarm-design.json): ${design.topology} with ${design.agents.map((a) => a.name).join(', ')}`,
  );
  if (design.config && Object.keys(design.config).length)
    console.log(`Config: ${JSON.stringify(design.config)}`);

  // A saved design runs later, without asking the model to design again.
  const { topology } = loadSwarmSpec(design, { topologies, defaultModel: model });
  const result = await topology.run(task);
  console.log(`\n${result.output}\n\n${result.llmCalls} model calls`);
} catch (error) {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}

function offlineModel(): ScriptedModel {
  return new ScriptedModel([], {
    fallback: respond((request: ModelRequest) => {
      if (typeof request.toolChoice === 'object' && request.toolChoice.name === 'design_swarm') {
        const design = {
          topology: 'AgentRearrange',
          reason: 'Draft, then check clarity and facts in parallel, then finalize.',
          agents: [
            {
              name: 'copywriter',
              description: 'Drafts copy.',
              instructions: 'Write a one-paragraph product description.',
            },
            {
              name: 'clarity',
              description: 'Checks clarity.',
              instructions: 'Point out anything unclear, briefly.',
            },
            {
              name: 'facts',
              description: 'Checks claims.',
              instructions: 'Flag any claim that needs backing.',
            },
            {
              name: 'editor',
              description: 'Finalizes.',
              instructions: 'Write the final paragraph from the draft and the notes.',
            },
          ],
          config: { flow: 'copywriter -> clarity, facts -> editor' },
        };
        return { toolCalls: [{ name: 'design_swarm', arguments: design }] };
      }
      return `(${request.metadata?.agent}) scripted text for: ${request.messages.at(-1)?.content.slice(0, 40)}…`;
    }),
  });
}
