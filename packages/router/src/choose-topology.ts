import { generateObject, type Model, type RunContext, type TopologyDescriptor } from '@swarm/core';
import { z } from 'zod';

/** The structured choice of `swarmType: 'auto'`: one of the registered types, and why. */
export interface TopologyChoice {
  swarmType: string;
  reason: string;
}

/**
 * Asks the model to pick the topology that fits the task best among `candidates`, with one
 * forced function call whose `swarmType` is an enum of their types (an invalid choice is sent back
 * for repair).
 */
export async function chooseTopology(
  model: Model,
  task: string,
  candidates: readonly TopologyDescriptor[],
  context: RunContext,
  agentNames: readonly string[],
): Promise<TopologyChoice> {
  const types = candidates.map((d) => d.type) as [string, ...string[]];
  const schema = z.object({
    swarmType: z.enum(types).describe('The topology that fits the task best.'),
    reason: z.string().describe('One or two sentences: why this topology fits the task.'),
  });
  const menu = candidates.map((d) => `- ${d.type}: ${d.description}`).join('\n');
  const { object } = await generateObject(model, {
    schema,
    name: 'choose_topology',
    description: 'Choose how the agents should work together on the task.',
    system:
      'You choose how a team of AI agents should work together on a task. The ways available are:\n' +
      `${menu}\n\nThe agents are: ${agentNames.join(', ')}.`,
    prompt: `Task:\n${task}`,
    purpose: 'choose_topology',
    agent: 'SwarmRouter',
    context,
  });
  return object;
}
