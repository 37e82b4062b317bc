import { memoryJournal, runStream } from '@swarm/core';
import { refundDesk } from '@swarm/core/testing';
import { SequentialWorkflow } from '@swarm/workflow';
import {
  AbstractChat,
  type ChatState,
  type ChatStatus,
  type ChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  readUIMessageStream,
  type UIMessage,
} from 'ai';
import { describe, expect, it } from 'vitest';
import type { SwarmUIMessage } from './ui-data-types.js';
import { resumeFromMessages, toUIMessageStream } from './ui-message-stream.js';

// A run that pauses for approval, through the AI SDK's own chat client (AbstractChat, what useChat
// wraps): the waiting call is a tool part in `approval-requested`, the run part ends `paused`, the
// user answers with addToolApprovalResponse, and the server resumes from the messages it is sent.

/** The smallest ChatState: what @ai-sdk/react keeps in React state, here in plain fields. */
class PlainState implements ChatState<SwarmUIMessage> {
  status: ChatStatus = 'ready';
  error: Error | undefined = undefined;
  messages: SwarmUIMessage[] = [];
  pushMessage = (message: SwarmUIMessage) => void this.messages.push(message);
  popMessage = () => void this.messages.pop();
  replaceMessage = (index: number, message: SwarmUIMessage) => {
    this.messages[index] = message;
  };
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

class Chat extends AbstractChat<SwarmUIMessage> {
  constructor(transport: ChatTransport<SwarmUIMessage>) {
    super({
      transport,
      state: new PlainState(),
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    });
  }
  get all() {
    return this.state.messages;
  }
}

/** A server for one clerk: a new task starts a run, messages answering a paused run resume it. */
function server() {
  const { agent: clerk, refunds, model } = refundDesk();
  const paused = new Map<string, { task: string; journal: ReturnType<typeof memoryJournal> }>();
  const requests: UIMessage[][] = [];
  const transport: ChatTransport<SwarmUIMessage> = {
    sendMessages: async ({ messages }) => {
      requests.push(structuredClone(messages));
      const resume = resumeFromMessages(messages);
      if (resume !== undefined) {
        const run = paused.get(resume.runId)!;
        return toUIMessageStream(
          runStream((o) =>
            clerk.run(run.task, {
              ...o,
              journal: run.journal,
              runId: resume.runId,
              approvals: resume.approvals,
            }),
          ),
        );
      }
      const last = messages.at(-1)!;
      const task = last.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
      const journal = memoryJournal();
      const runId = `run-${paused.size + 1}`;
      paused.set(runId, { task, journal });
      return toUIMessageStream(runStream((o) => clerk.run(task, { ...o, journal, runId })));
    },
    reconnectToStream: async () => null,
  };
  return { transport, refunds, requests, model };
}

const toolPart = (message: SwarmUIMessage | undefined) =>
  message?.parts.find((p) => p.type === 'dynamic-tool') as
    | { state: string; toolName: string; input: unknown; approval?: { id: string; approved?: boolean } }
    | undefined;
const runPart = (message: SwarmUIMessage | undefined) =>
  message?.parts.find((p) => p.type === 'data-swarm-run') as
    | { data: { status: string; pending?: string[] } }
    | undefined;

describe('a paused run in the AI SDK chat client', () => {
  it('shows the waiting call as approval-requested, the run part paused; an approval resumes it on the server', async () => {
    const { transport, refunds, requests } = server();
    const chat = new Chat(transport);
    await chat.sendMessage({ text: 'Refund order A-17.' });

    expect(chat.error?.stack).toBeUndefined();
    expect(chat.status).toBe('ready');
    const message = chat.all.at(-1);
    expect(toolPart(message)).toMatchObject({
      state: 'approval-requested',
      toolName: 'refund',
      input: { order: 'A-17' },
      approval: { id: expect.any(String) },
    });
    expect(runPart(message)?.data).toMatchObject({
      status: 'paused',
      pending: [toolPart(message)!.approval!.id],
    });
    expect(JSON.stringify(message)).not.toContain('RUN_PAUSED');
    expect(refunds).toEqual([]);

    await chat.addToolApprovalResponse({ id: toolPart(message)!.approval!.id, approved: true });
    await expect.poll(() => chat.status, { timeout: 20_000 }).not.toMatch(/submitted|streaming/);
    await expect.poll(() => chat.status === 'ready' && requests.length === 2, { timeout: 20_000 }).toBe(true);
    await expect.poll(() => runPart(chat.all.at(-1))?.data.status, { timeout: 20_000 }).toBe('done');

    expect(refunds).toEqual(['A-17']);
    const final = chat.all.at(-1)!;
    expect(chat.all.filter((m) => m.role === 'assistant')).toHaveLength(1);
    expect(toolPart(final)).toMatchObject({ state: 'output-available' });
    expect(final.parts.find((p) => p.type === 'data-swarm-result')).toMatchObject({
      data: { output: 'Done: order A-17 is refunded.' },
    });
  });

  it('a rejection with a reason reaches the model, and the tool never runs', async () => {
    const { transport, refunds, model } = server();
    const chat = new Chat(transport);
    await chat.sendMessage({ text: 'Refund order A-17.' });
    const id = toolPart(chat.all.at(-1))!.approval!.id;
    await chat.addToolApprovalResponse({ id, approved: false, reason: 'No receipt.' });
    await expect.poll(() => runPart(chat.all.at(-1))?.data.status, { timeout: 20_000 }).toBe('done');

    expect(refunds).toEqual([]);
    expect(JSON.stringify(model.lastCall?.messages)).toContain('No receipt.');
    expect(chat.all.at(-1)!.parts.find((p) => p.type === 'data-swarm-result')).toMatchObject({
      data: { output: 'The refund of A-17 was not made.' },
    });
  });

  it('resumeFromMessages takes only the calls the run waits for, and nothing from a run that is not paused', () => {
    const message = {
      id: 'm',
      role: 'assistant',
      parts: [
        {
          type: 'data-swarm-run',
          id: 'r',
          data: { runId: 'r', path: ['x'], status: 'paused', pending: ['a1'] },
        },
        {
          type: 'dynamic-tool',
          toolName: 't',
          toolCallId: 'c1',
          state: 'approval-responded',
          input: {},
          approval: { id: 'a1', approved: true },
        },
        {
          type: 'dynamic-tool',
          toolName: 't',
          toolCallId: 'c2',
          state: 'approval-responded',
          input: {},
          approval: { id: 'forged', approved: true },
        },
      ],
    } as unknown as UIMessage;
    expect(resumeFromMessages([message])).toEqual({
      runId: 'r',
      approvals: { a1: { approved: true } },
      undecided: [],
    });
    const done = structuredClone(message) as unknown as { parts: { data?: { status: string } }[] };
    done.parts[0]!.data!.status = 'done';
    expect(resumeFromMessages([done as unknown as UIMessage])).toBeUndefined();
  });

  it("a topology's pause: its run part ends paused with the pending ids, no error chunk, the tool part awaiting approval", async () => {
    const clerk = refundDesk().agent;
    const desk = new SequentialWorkflow({ name: 'desk', agents: [clerk] });
    const errors: unknown[] = [];
    let message: SwarmUIMessage | undefined;
    for await (const snapshot of readUIMessageStream<SwarmUIMessage>({
      stream: toUIMessageStream(desk.stream('Refund A-17.', { journal: memoryJournal() })),
      onError: (error) => errors.push(error),
    })) {
      message = snapshot;
    }
    expect(errors).toEqual([]);
    expect(toolPart(message)).toMatchObject({
      state: 'approval-requested',
      approval: { id: expect.any(String) },
    });
    expect(runPart(message)?.data).toMatchObject({
      status: 'paused',
      pending: [toolPart(message)!.approval!.id],
    });
    expect(resumeFromMessages([message!])).toMatchObject({
      approvals: {},
      undecided: [toolPart(message)!.approval!.id],
    });
  });
});
