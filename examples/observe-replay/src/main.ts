// See and replay a run: a handoff team that asks a forest of experts is run once with its model
// calls recorded to a JSONL cassette, then replayed offline from it (no model, same answer), and
// the replay's OpenTelemetry GenAI spans are printed as a tree.
// With a model configured (SWARM_MODEL, OPENAI_API_KEY or ANTHROPIC_API_KEY) the recording is of
// a real run; without one, scripted agents play their parts.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configuredModel, configureModelHint, resolveModel } from '@swarm/core';
import { scriptedModels, task } from './helpdesk.js';
import { modelsOf, recordAndReplay } from './observe.js';

const configured = configuredModel();
if (!configured) {
  console.log('No model configured: scripted agents play their parts in the recording.');
  console.log(`To record a real run: ${configureModelHint}\n`);
}

try {
  const dir = mkdtempSync(join(tmpdir(), 'observe-replay-'));
  const models = modelsOf(configured ? resolveModel(configured) : undefined, scriptedModels);
  const { recorded, replayed, cassette, tree } = await recordAndReplay(models, dir);
  console.log(`Task:     ${task}`);
  console.log(`Recorded: ${recorded.output}  (${recorded.llmCalls} model calls, cassette ${cassette})`);
  console.log(
    `Replayed: ${replayed.output}  (offline, ${replayed.llmCalls} calls answered from the cassette)`,
  );
  console.log(`Same answer: ${replayed.output === recorded.output}\n`);
  console.log('The replay as OpenTelemetry spans:');
  for (const line of tree) console.log(`  ${line}`);
} catch (error) {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
