// A chat page for a team run: `pnpm example chat-ui`, then open the address it prints. The page
// posts a task; the server answers with the run as an AI SDK UI message stream (@swarm/ai-sdk's
// toUIMessageStream); the page renders it with the AI SDK's own reader, as it happens.
// With a model configured (SWARM_MODEL, OPENAI_API_KEY or ANTHROPIC_API_KEY) the agents are real;
// without one, scripted models answer any task, offline.
import { configuredModel, configureModelHint, errorMessage } from '@swarm/core';
import { startChatServer } from './server.js';
import { createRefundDesk, createTeam } from './team.js';

async function main(): Promise<void> {
  const model = configuredModel();
  if (!model) console.log(`No model configured: scripted models answer. ${configureModelHint}`);
  const port = process.env.PORT === undefined ? 3000 : Number(process.env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(
      `PORT must be a port number (0 for any free one), got ${JSON.stringify(process.env.PORT)}.`,
    );
  }
  // `CHAT_DESK=refund`: a clerk whose refunds wait for your Approve / Reject on the page.
  const team = process.env.CHAT_DESK === 'refund' ? createRefundDesk(model).desk : createTeam(model);
  const server = await startChatServer({ team, port });
  console.log(`Open ${server.url} (Ctrl-C to stop).`);
  process.once('SIGINT', () => {
    void server.close().then(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  console.error(`error: ${errorMessage(error)}`);
  process.exitCode = 1;
});
