import { randomUUID } from 'node:crypto';
import { stdin, stdout } from 'node:process';
import { createInterface } from 'node:readline';
import { Agent, configuredModel, configureModelHint, errorMessage, type SwarmEvent, tool } from '@swarm/core';
import { handoff, Team } from '@swarm/handoff';
import { z } from 'zod';

// The support desk of seed 003: triage passes the conversation to billing (a typed handoff) or to
// tech (the generic handoff tool); whoever answers without handing off replies to you. The whole
// chat is one session, so a follow-up goes to the agent that answered last.

const lookupInvoice = tool({
  name: 'lookup_invoice',
  description: 'Look up an invoice by its number.',
  parameters: z.object({ invoice_id: z.string() }),
  execute: ({ invoice_id }) =>
    invoice_id === '42' ? 'invoice 42: charged twice' : `invoice ${invoice_id}: paid once, no issue`,
});

const BillingHandoff = z.object({
  invoice_id: z.string().describe('The invoice number, or "unknown".'),
  reason: z.string().describe('What the customer needs from billing.'),
});

function supportDesk(model: string) {
  const triage = new Agent({
    name: 'triage',
    instructions: 'Triage incoming requests. Hand billing questions to billing, technical ones to tech.',
    model,
  });
  const billing = new Agent({
    name: 'billing',
    instructions: 'Handle billing. Look invoices up before answering.',
    model,
    tools: [lookupInvoice],
  });
  const tech = new Agent({ name: 'tech', instructions: 'Handle technical issues.', model });
  return Team.swarm({
    agents: { triage, billing: handoff(billing, { inputType: BillingHandoff }), tech },
    entryAgent: 'triage',
  });
}

function printEvent(event: SwarmEvent): void {
  if (event.type === 'swarm.handoff') console.log(`  ↪ ${event.from} → ${event.to}: ${event.message}`);
  if (event.type === 'tool.call' && event.tool === 'lookup_invoice') {
    console.log(`  · ${event.agent} looks up invoice ${JSON.stringify(event.arguments)}`);
  }
  if (event.type === 'swarm.cycle_detected' || event.type === 'swarm.max_handoffs') {
    console.log(`  ! ${event.type}: ${event.agent} answers now`);
  }
}

async function main(): Promise<void> {
  const model = configuredModel();
  if (!model) {
    console.log(`This example needs a model. ${configureModelHint}`);
    return;
  }
  const team = supportDesk(model);
  const sessionId = randomUUID();
  const rl = createInterface({ input: stdin, output: stdout });
  console.log(`Support desk (${model}). Try "I was charged twice for invoice 42". Type "exit" to leave.`);
  rl.setPrompt('you> ');
  rl.prompt();
  for await (const line of rl) {
    const text = line.trim();
    if (text === 'exit' || text === 'quit') break;
    if (text !== '') {
      try {
        const result = await team.run(text, { sessionId, onEvent: printEvent });
        console.log(`${result.lastAgent}> ${result.output}`);
      } catch (error) {
        console.log(`error> ${errorMessage(error)}`);
      }
    }
    rl.prompt();
  }
  rl.close();
}

main().catch((error: unknown) => {
  console.error(`error: ${errorMessage(error)}`);
  process.exitCode = 1;
});
