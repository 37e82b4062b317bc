// Three topologies in one run: a handoff team asks a forest of experts (a tool), and the forest's
// puzzle solver asks a Tree of Thoughts (a tool too). One budget covers all three, and one trace
// shows them all; it is printed as a tree of nested runs.
// With a model configured (SWARM_MODEL, OPENAI_API_KEY or ANTHROPIC_API_KEY) the agents are real;
// without one, scripted agents play their parts and the search uses the Game of 24 rules.
import { configuredModel, configureModelHint, type ModelLike, type SwarmEvent } from '@swarm/core';
import { reply, ScriptedModel, toolCall } from '@swarm/core/testing';
import { buildHelpdesk } from './helpdesk.js';
import { traceTree } from './trace-tree.js';

const task = 'For our team game: how do I make 24 from 4, 9, 10 and 13?';
const model = configuredModel();

const offline = (steps: ConstructorParameters<typeof ScriptedModel>[0]): ModelLike =>
  new ScriptedModel(steps);
const models = model
  ? { triage: model, taxExpert: model, puzzleSolver: model, search: model }
  : {
      triage: offline([toolCall('ask_experts', { task }), reply('Try (10 - 4) * (13 - 9) = 24.')]),
      taxExpert: offline([]),
      puzzleSolver: offline([
        toolCall('solve_24', { task: 'Use 4, 9, 10 and 13 with + - * / to make 24.' }),
        reply('(10 - 4) * (13 - 9) = 24'),
      ]),
    };

if (!model) {
  console.log('No model configured: scripted agents play their parts.');
  console.log(`To run it for real: ${configureModelHint}\n`);
}

try {
  const { team } = buildHelpdesk(models);
  const events: SwarmEvent[] = [];
  const result = await team.run(task, { onEvent: (e) => events.push(e), budget: { maxCalls: 40 } });
  console.log(`Task:   ${task}`);
  console.log(`Answer: ${result.output}`);
  console.log(
    `Calls:  ${result.llmCalls} model calls, ${result.usage.totalTokens} tokens, in all three topologies\n`,
  );
  console.log('The one trace, as a tree of nested runs:');
  console.log(traceTree(events));
} catch (error) {
  console.error(`The run failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
