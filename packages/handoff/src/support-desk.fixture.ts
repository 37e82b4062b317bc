import { Agent, type ModelRequest, tool } from '@swarm/core';
import { ScriptedModel, type ScriptStep, toolCall } from '@swarm/core/testing';
import { z } from 'zod';

// The seed's support desk for tests: one scripted model per agent, so each test can assert what
// each agent received.

export const lookupInvoice = tool({
  name: 'lookup_invoice',
  description: 'Look up an invoice.',
  parameters: z.object({ invoice_id: z.string() }),
  execute: () => 'invoice 42: charged twice',
});

export interface DeskScripts {
  triage?: ScriptStep[];
  billing?: ScriptStep[];
  tech?: ScriptStep[];
}

export function supportDesk(scripts: DeskScripts) {
  const models = {
    triage: new ScriptedModel(scripts.triage ?? [], { id: 'triage-model' }),
    billing: new ScriptedModel(scripts.billing ?? [], { id: 'billing-model' }),
    tech: new ScriptedModel(scripts.tech ?? [], { id: 'tech-model' }),
  };
  const triage = new Agent({
    name: 'triage',
    instructions: 'Triage incoming requests.',
    model: models.triage,
    tools: [lookupInvoice],
  });
  const billing = new Agent({
    name: 'billing',
    instructions: 'Handle billing.',
    model: models.billing,
    tools: [lookupInvoice],
  });
  const tech = new Agent({ name: 'tech', instructions: 'Handle technical issues.', model: models.tech });
  return { triage, billing, tech, models };
}

/** The names of the tools a request offered. */
export function toolNames(request: ModelRequest | undefined): string[] | undefined {
  return request?.tools?.map((t) => t.name);
}

/** The targets the generic handoff tool of a request allowed. */
export function handoffTargets(request: ModelRequest | undefined): unknown {
  const definition = request?.tools?.find((t) => t.name === 'handoff');
  const properties = definition?.parameters.properties as Record<string, { enum?: unknown }> | undefined;
  return properties?.target?.enum;
}

/** The model calls the generic handoff tool (with optional text beside the call). */
export function handTo(target: string, message: string, text?: string): ScriptStep {
  return toolCall('handoff', { target, message }, text === undefined ? {} : { text });
}
