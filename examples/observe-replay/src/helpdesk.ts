// The run to observe: a handoff team whose triage agent asks a forest of experts (a tool), then
// hands the customer to billing. Three runs nested in one, models called at two depths.
import { Agent, type Model } from '@swarm/core';
import { reply, ScriptedModel, toolCall } from '@swarm/core/testing';
import { ForestSwarm, Tree, TreeAgent } from '@swarm/forest';
import { Team } from '@swarm/handoff';

/** One model per agent. */
export type HelpdeskModels = Record<'triage' | 'taxExpert' | 'chef' | 'billing', Model>;

export const task = 'How do I file the tax return of my corporation? And I was charged twice.';

/** Builds the team around the given models. */
export function buildHelpdesk(models: HelpdeskModels) {
  const experts = new ForestSwarm({
    name: 'Experts',
    trees: [
      new Tree({
        name: 'Finance',
        agents: [
          new TreeAgent({
            name: 'Tax Expert',
            systemPrompt: 'Corporate taxation, tax returns and tax filing for businesses.',
            model: models.taxExpert,
          }),
        ],
      }),
      new Tree({
        name: 'Kitchen',
        agents: [
          new TreeAgent({
            name: 'Chef',
            systemPrompt: 'Italian cooking: pasta, risotto, recipes.',
            model: models.chef,
          }),
        ],
      }),
    ],
  });
  const triage = new Agent({
    name: 'triage',
    instructions: 'Ask the experts about taxes; hand billing problems to billing.',
    model: models.triage,
    tools: [experts.asTool({ name: 'ask_experts', description: 'Routes a question to the right expert.' })],
  });
  const billing = new Agent({ name: 'billing', instructions: 'Handle refunds.', model: models.billing });
  return Team.swarm({ name: 'helpdesk', agents: { triage, billing }, entryAgent: 'triage' });
}

/** Scripted agents that play their parts, so the example needs no model. */
export function scriptedModels(): HelpdeskModels {
  return {
    triage: new ScriptedModel(
      [
        toolCall('ask_experts', { task: 'How do I file the tax return of a corporation?' }),
        toolCall('handoff', { target: 'billing', message: 'Charged twice; the tax answer: Form 1120.' }),
      ],
      { id: 'mock:triage', usage: { inputTokens: 120, outputTokens: 18 } },
    ),
    taxExpert: new ScriptedModel([reply('File Form 1120 by the 15th day of the 4th month after year end.')], {
      id: 'mock:tax-expert',
      usage: { inputTokens: 60, outputTokens: 16 },
    }),
    chef: new ScriptedModel([], { id: 'mock:chef' }),
    billing: new ScriptedModel([reply('The duplicate charge is refunded. For taxes, file Form 1120.')], {
      id: 'mock:billing',
      usage: { inputTokens: 150, outputTokens: 14 },
    }),
  };
}
