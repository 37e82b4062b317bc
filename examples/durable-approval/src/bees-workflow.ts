// The workflow that is killed mid-run: three steps, each an agent, on a file journal.
import { Agent, fileJournal, type Model, type ModelRequest } from '@swarm/core';
import { respond, ScriptedModel } from '@swarm/core/testing';
import { SequentialWorkflow } from '@swarm/workflow';

export const task = 'Write a short note on why bees matter to farming.';

/** What a run of the workflow printed as its last line (JSON), for the process that started it. */
export interface WorkflowOutcome {
  output: string;
  steps: { agent: string; output: string }[];
  llmCalls: number;
  replayedCalls: number;
  liveCalls: number;
}

const scripted: Record<string, string> = {
  researcher:
    'Bees pollinate about a third of the crops we eat; without them, yields of fruit and nuts fall sharply.',
  writer: 'Draft: Bees carry pollen from flower to flower, and a third of our crops depend on it.',
  editor: 'Bees pollinate a third of our crops: farms without them grow less fruit and fewer nuts.',
};

/** A scripted step: it answers from the request alone, so a resumed run meets the same answer. */
function scriptedStep(name: string): Model {
  return new ScriptedModel([], { id: `mock:${name}`, fallback: respond(() => scripted[name]!) });
}

/**
 * Runs researcher → writer → editor on `fileJournal(dir)` as run `runId`, with `model` for every
 * step (else scripted steps). `beforeCall(n)` runs before the n-th call that goes to a model (not
 * one answered from the journal): the crash demo stops there.
 */
export async function runBeesWorkflow(
  dir: string,
  runId: string,
  model: Model | undefined,
  beforeCall: (n: number) => Promise<void> = async () => {},
): Promise<WorkflowOutcome> {
  let calls = 0;
  const counted = (inner: Model): Model => ({
    id: inner.id,
    generate: async (request: ModelRequest) => {
      await beforeCall(++calls);
      return inner.generate(request);
    },
  });
  const step = (name: string, instructions: string) =>
    new Agent({ name, instructions, model: counted(model ?? scriptedStep(name)) });
  const workflow = new SequentialWorkflow({
    agents: [
      step('researcher', 'Give the two or three facts that matter most, in two sentences.'),
      step('writer', 'Write a three-sentence note for farmers from the facts you are given.'),
      step('editor', 'Tighten the note to two sentences. Answer with the note only.'),
    ],
  });
  const result = await workflow.run(task, { journal: fileJournal(dir), runId });
  return {
    output: result.output,
    steps: result.steps,
    llmCalls: result.llmCalls,
    replayedCalls: result.replayedCalls ?? 0,
    liveCalls: result.liveCalls ?? 0,
  };
}
