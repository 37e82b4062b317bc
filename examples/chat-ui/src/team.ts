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
  tool,
} from '@swarm/core';
import { respond, ScriptedModel } from '@swarm/core/testing';
import { SequentialWorkflow } from '@swarm/workflow';
import { z } from 'zod';

/** Options of the offline team. */
export interface TeamOptions {
  /** Milliseconds between two pieces of streamed text (default 40). */
  paceMs?: number;
  /**
   * When given, every offline stream waits for it after its first piece of text: a test holds the
   * run there to look at the page mid-stream, whatever the machine's load.
   */
  hold?: Promise<unknown>;
}

/** Builds the team on `model`, or on scripted models (offline) when none is given. */
export function createTeam(model?: ModelLike, options: TeamOptions = {}): SequentialWorkflow {
  const paceMs = options.paceMs ?? 40;
  const modelOf = (offline: ScriptedModel): ModelLike => model ?? paced(offline, paceMs, options.hold);
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
function paced(model: Model, ms: number, hold?: Promise<unknown>): Model {
  if ((ms <= 0 && !hold) || !model.stream) return model;
  const stream = model.stream.bind(model);
  return {
    id: model.id,
    generate: (request) => model.generate(request),
    async *stream(request): AsyncIterable<ModelStreamEvent> {
      let held = false;
      for await (const event of stream(request)) {
        if (event.type === 'text-delta') {
          await pause(ms, request.signal);
          throwIfAborted(request.signal);
        }
        yield event;
        if (event.type === 'text-delta' && hold && !held) {
          held = true;
          await until(hold, request.signal);
          throwIfAborted(request.signal);
        }
      }
    },
  };
}

/** Settles when `promise` does or `signal` aborts, whichever is first, leaving no listener behind. */
function until(promise: Promise<unknown>, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      signal?.removeEventListener('abort', done);
      resolve();
    };
    signal?.addEventListener('abort', done, { once: true });
    promise.then(done, done);
  });
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

/**
 * A desk whose clerk refunds orders: the `refund` tool waits for a person's approval, so the page
 * shows Approve / Reject on the call, and the run goes on from the answer. `refunds` lists what the
 * tool really refunded. Scripted when no model is given.
 */
export function createRefundDesk(model?: ModelLike): { desk: SequentialWorkflow; refunds: string[] } {
  const refunds: string[] = [];
  const refund = tool({
    name: 'refund',
    description: 'Refunds an order; a person approves each refund first.',
    parameters: z.object({ order: z.string().describe('The order number') }),
    needsApproval: true,
    execute: ({ order }) => {
      refunds.push(order);
      return `Order ${order} refunded.`;
    },
  });
  const clerk = new Agent({
    name: 'clerk',
    instructions: 'Refund the order the customer names with the refund tool, then say what happened.',
    tools: [refund],
    model:
      model ??
      new ScriptedModel([], {
        id: 'scripted-clerk',
        fallback: respond((request) => {
          const last = request.messages.at(-1);
          if (last?.role === 'tool') {
            return messageText(last).includes('refunded')
              ? 'The order is refunded.'
              : 'The refund was not made.';
          }
          return { text: '', toolCalls: [{ name: 'refund', arguments: { order: 'A-17' } }] };
        }),
      }),
  });
  return { desk: new SequentialWorkflow({ name: 'refund-desk', agents: [clerk] }), refunds };
}
