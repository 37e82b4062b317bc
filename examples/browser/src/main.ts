// Runs in the page, bundled for the browser by src/server.ts: a ForestSwarm routes a question to the
// right specialist, and a SequentialWorkflow hands a writer's draft to an editor. Scripted models
// answer, so the page needs no key and no network beyond its own server. Whatever the run gives is
// put in the page as text (textContent), never as HTML.
import { Agent, errorMessage, messageText } from '@swarm/core';
import { reply, respond, ScriptedModel } from '@swarm/core/testing';
import { ForestSwarm, Tree, TreeAgent } from '@swarm/forest';
import { SequentialWorkflow } from '@swarm/workflow';

/** Puts `text` in the element `id`, as text. */
function show(id: string, text: string): void {
  const element = document.getElementById(id);
  if (!element) throw new Error(`The page has no #${id}.`);
  element.textContent = text;
}

// Each specialist has its own strict scripted model: one that is asked without being routed to
// throws, and the page shows the error.
const specialist = (name: string, systemPrompt: string, answers: string[] = []) =>
  new TreeAgent({ name, systemPrompt, model: new ScriptedModel(answers.map((answer) => reply(answer))) });

const forest = new ForestSwarm({
  name: 'household-help',
  trees: [
    new Tree({
      name: 'Home',
      agents: [
        specialist(
          'Dog Trainer',
          'I am a dog trainer. I teach obedience, leash walking, house training and recall, and fix barking and biting.',
          ['Stop walking whenever the leash goes tight, and reward your puppy for walking beside you.'],
        ),
        specialist(
          'Gardener',
          'I am a gardener. I care for lawns, flower beds, hedges, trees and shrubs: pruning, mulching and weeding.',
        ),
      ],
    }),
  ],
});

async function runForest(): Promise<void> {
  // "train" is the only word the task shares with the dog trainer's prompt: one word of evidence,
  // so the forest's sense check reads the word vectors (fetched by @swarm/embeddings in a browser).
  const task = 'How do I train my puppy to stop pulling?';
  show('forest-task', task);
  const { decision, output } = await forest.run(task);
  show('forest-route', `${decision.tree} / ${decision.agent}`);
  show(
    'forest-sense',
    decision.sense
      ? `"${decision.keywordMatches.join(', ')}" in its sense: ${decision.sense.similarity.toFixed(3)} >= ${decision.sense.threshold.toFixed(3)}`
      : 'not needed',
  );
  show('forest-answer', output);
}

const workflow = new SequentialWorkflow({
  name: 'announcement',
  agents: [
    new Agent({
      name: 'writer',
      instructions: 'Write a one-sentence announcement.',
      model: new ScriptedModel([reply('Draft: our <b>bakery</b> opens on Monday & bakes rye bread.')]),
    }),
    new Agent({
      name: 'editor',
      instructions: 'Tighten the draft you are given.',
      // The editor answers from what it was handed: the workflow's output shows the draft came through.
      model: new ScriptedModel([
        respond((request) => {
          const draft = request.messages.map(messageText).find((text) => text.startsWith('Draft: '));
          return draft
            ? `Edited: ${draft.slice('Draft: '.length).replace(' & bakes', ', baking')}`
            : 'No draft came.';
        }),
      ]),
    }),
  ],
});

async function runWorkflow(): Promise<void> {
  const task = 'Announce the bakery opening.';
  show('workflow-task', task);
  const result = await workflow.run(task);
  show('workflow-steps', result.steps.map((step) => step.agent).join(' -> '));
  show('workflow-answer', result.output);
}

// Each run reports its own failure (a ConfigError names what to do), and the page says when both ended.
const failure = (id: string) => (error: unknown) => {
  show(id, `${error instanceof Error ? error.name : 'Error'}: ${errorMessage(error)}`);
};
void Promise.all([
  runForest().catch(failure('forest-error')),
  runWorkflow().catch(failure('workflow-error')),
]).finally(() => {
  document.body.dataset.status = 'done';
});
