// The team the page talks to: a researcher who asks a fact checker (an agent called as a tool, so a
// nested run) before it answers, then a writer: a two-step SequentialWorkflow. With a model
// configured the agents are real; without one, scripted models answer any task, their text paced
// word by word so the page shows it arrive.
import {
  Agent,
  type Message,
  type Model,
  type ModelLike,
  type ModelStreamEvent,
  messageText,
  throwIfAborted,
} from '@swarm/core';
import { respond, ScriptedModel } from '@swarm/core/testing';
import { SequentialWorkflow } from '@swarm/workflow';

/** Builds the team on `model`, or on scripted models (offline) when none is given. */
export function createTeam(model?: ModelLike, options: { paceMs?: number } = {}): SequentialWorkflow {
  const paceMs = options.paceMs ?? 40;
  const modelOf = (offline: ScriptedModel): ModelLike => model ?? paced(offline, paceMs);
  const checker = new Agent({
    name: 'fact-checker',
    description: 'Checks one claim and says whether it holds.',
    instructions: 'Check the claim you are given. Answer in one sentence.',
    model: modelOf(
      new ScriptedModel([], {
        id: 'scripted-checker',
        fallback: respond((request) => `Checked: "${lastText(request.messages)}" holds up.`),
      }),
    ),
  });
  const researcher = new Agent({
    name: 'researcher',
    instructions:
      'Find the key facts for the task. Have the fact checker check the most important one first.',
    tools: [checker.asTool({ name: 'fact_checker' })],
    model: modelOf(
      new ScriptedModel([], {
        id: 'scripted-researcher',
        fallback: respond((request) => {
          const last = request.messages.at(-1);
          if (last?.role === 'tool') return `Key facts gathered. ${last.content}`;
          return {
            text: '',
            toolCalls: [
              {
                name: 'fact_checker',
                arguments: { task: `The main claim of: ${lastText(request.messages)}` },
              },
            ],
          };
        }),
      }),
    ),
  });
  const writer = new Agent({
    name: 'writer',
    instructions: 'Write a short, clear answer from the research you are given.',
    model: modelOf(
      new ScriptedModel([], {
        id: 'scripted-writer',
        fallback: respond(() => 'Here is the answer, written from checked facts: all clear.'),
      }),
    ),
  });
  return new SequentialWorkflow({ name: 'research-desk', agents: [researcher, writer] });
}

function lastText(messages: Message[]): string {
  return messageText(messages.at(-1) ?? { content: '' }).slice(0, 80);
}

/** A model whose streamed text arrives one piece every `ms` milliseconds, as a real model's does. */
function paced(model: Model, ms: number): Model {
  if (ms <= 0 || !model.stream) return model;
  const stream = model.stream.bind(model);
  return {
    id: model.id,
    generate: (request) => model.generate(request),
    async *stream(request): AsyncIterable<ModelStreamEvent> {
      for await (const event of stream(request)) {
        if (event.type === 'text-delta') {
          await pause(ms, request.signal);
          throwIfAborted(request.signal);
        }
        yield event;
      }
    },
  };
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}
