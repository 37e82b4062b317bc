/**
 * Seed 001's director pattern: a director splits a launch brief into orders for a researcher, an
 * analyst and a writer; the writer's order depends on the other two, which run at the same time.
 * With a model configured (SWARM_MODEL, OPENAI_API_KEY or ANTHROPIC_API_KEY) every part is played
 * by the model, over two rounds with director feedback; without one, a scripted model plays them
 * so you can see the flow, the orders and the trace offline.
 */
import { Agent, configuredModel, configureModelHint, type ModelLike, type ModelRequest } from '@swarm/core';
import { ScriptedModel } from '@swarm/core/testing';
import { HierarchicalSwarm } from '@swarm/hierarchy';

const task = 'Write a one-page launch brief for a note-taking app aimed at students.';
const configured = configuredModel();
const model: ModelLike = configured ?? scriptedTeam();

const swarm = new HierarchicalSwarm({
  director: model,
  agents: [
    new Agent({
      name: 'researcher',
      description: 'Finds facts about markets and users.',
      instructions: 'You research markets and users. Be concrete.',
      model,
    }),
    new Agent({
      name: 'analyst',
      description: 'Sizes markets and compares competitors.',
      instructions: 'You analyse markets and competitors with numbers.',
      model,
    }),
    new Agent({
      name: 'writer',
      description: 'Writes clear, short documents.',
      instructions: 'You write clear, short briefs.',
      model,
    }),
  ],
  maxLoops: 2,
  directorFeedback: true,
  maxWorkers: 2,
});

if (!configured)
  console.log(
    `No model configured: a scripted model plays every part.\nTo run for real: ${configureModelHint}\n`,
  );

const result = await swarm.run(task, {
  onEvent: (event) => {
    if (event.type === 'hierarchy.order.start')
      console.log(`  -> ${event.agent} starts order ${event.id} (attempt ${event.attempt})`);
    if (event.type === 'hierarchy.order.end')
      console.log(`  <- ${event.agent} ${event.status} order ${event.id}`);
  },
});

result.loops.forEach((loop, i) => {
  console.log(`\nRound ${i + 1}: ${loop.plan}${loop.done ? ' (done)' : ''}`);
  for (const order of loop.orders) {
    const after = order.dependsOn.length > 0 ? ` after ${order.dependsOn.join(', ')}` : '';
    console.log(
      `  ${order.id} ${order.agentName}${after}: ${order.task} [${order.status}, ${order.attempts} attempt(s)]`,
    );
  }
  if (loop.feedback) console.log(`  feedback: ${loop.feedback}`);
});
console.log(
  `\nFinal answer:\n${result.output}\n\nModel calls: ${result.llmCalls}, tokens: ${result.usage.totalTokens}`,
);

// What a model would say, scripted by the purpose of each call, so the example runs with no key.
function scriptedTeam(): ScriptedModel {
  let plans = 0;
  const orders = [
    { id: 'o1', agentName: 'researcher', task: 'List what students dislike about current note apps.' },
    {
      id: 'o2',
      agentName: 'analyst',
      task: 'Size the student note-taking market and name three competitors.',
    },
    {
      id: 'o3',
      agentName: 'writer',
      task: 'Write the brief from the research and the analysis.',
      dependsOn: ['o1', 'o2'],
    },
  ];
  const answers: Record<string, string> = {
    researcher: 'Students dislike clutter, paywalled sync and poor handwriting support.',
    analyst: 'About 20M students in the US and EU use a note app; Notion, OneNote and GoodNotes lead.',
    writer:
      'Launch brief: a clean, free-sync notes app with great handwriting, against Notion, OneNote and GoodNotes.',
  };
  return new ScriptedModel([], {
    id: 'scripted-team',
    fallback: {
      kind: 'respond',
      fn: (request: ModelRequest) => {
        const purpose = request.metadata?.purpose;
        if (purpose === 'director') {
          plans += 1;
          const spec =
            plans === 1
              ? {
                  plan: 'Research pains and size the market in parallel, then write the brief.',
                  orders,
                  done: false,
                }
              : { plan: 'The brief covers the task.', orders: [], done: true };
          return { text: '', toolCalls: [{ name: 'final_output', arguments: spec }] };
        }
        if (purpose === 'feedback') return 'Good. The brief should name a price.';
        if (purpose === 'final') return `${answers.writer} Price: free, with a paid tier for teams.`;
        return answers[request.metadata?.agent ?? ''] ?? 'Done.';
      },
    },
  });
}
