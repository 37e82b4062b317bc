// The page script, bundled for the browser: posts a task, then renders the run through the AI
// SDK's own client-side reader (parseJsonEventStream + readUIMessageStream, what useChat uses),
// with plain DOM: each run and agent turn, each agent's text as it streams, tool calls, the answer.
import type { SwarmUIMessage } from '@swarm/ai-sdk';
import { parseJsonEventStream, readUIMessageStream, type UIMessageChunk, uiMessageChunkSchema } from 'ai';

type Part = SwarmUIMessage['parts'][number];
/** One server-sent event as `parseJsonEventStream` gives it: a validated chunk, or why it is not one. */
type ParsedEvent = { success: true; value: UIMessageChunk } | { success: false; error: Error };

const form = element<HTMLFormElement>('task-form');
const input = element<HTMLInputElement>('task');
const runButton = element<HTMLButtonElement>('run');
const stopButton = element<HTMLButtonElement>('stop');
const status = element('status');
const parts = element('parts');
const answer = element('answer');
const errorBox = element('error');
let stopping: AbortController | undefined;

form.addEventListener('submit', (event) => {
  event.preventDefault();
  void run(input.value);
});
stopButton.addEventListener('click', () => stopping?.abort());

// The server's token, in the page's HTML: only a page this server served can call /api/run.
const token = document.querySelector<HTMLMetaElement>('meta[name="swarm-token"]')?.content ?? '';

// The conversation so far, as useChat keeps it: the user's task and the assistant's message. A
// paused run's approval answers are sent back as these messages.
let userMessage: { id: string; role: 'user'; parts: { type: 'text'; text: string }[] } | undefined;
let assistantMessage: SwarmUIMessage | undefined;

async function run(task: string): Promise<void> {
  parts.replaceChildren();
  answer.textContent = '';
  userMessage = { id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text: task }] };
  assistantMessage = undefined;
  await stream({ task });
}

/**
 * The user's answer to one waiting call, as useChat's addToolApprovalResponse records it on the tool
 * part; once every waiting call has one, the messages go back to the server, which resumes the run.
 */
function answerApproval(id: string, approved: boolean): void {
  const message = assistantMessage;
  if (!message) return;
  assistantMessage = {
    ...message,
    parts: message.parts.map((part) =>
      part.type === 'dynamic-tool' && part.state === 'approval-requested' && part.approval.id === id
        ? {
            ...part,
            state: 'approval-responded',
            approval: {
              ...part.approval,
              approved,
              ...(approved ? {} : { reason: 'Rejected on the page.' }),
            },
          }
        : part,
    ) as SwarmUIMessage['parts'],
  };
  render(assistantMessage);
  const waiting = assistantMessage.parts.some(
    (p) => p.type === 'dynamic-tool' && p.state === 'approval-requested',
  );
  if (!waiting) void stream({ messages: [userMessage, assistantMessage] }, assistantMessage);
}

async function stream(body: unknown, continued?: SwarmUIMessage): Promise<void> {
  stopping = new AbortController();
  runButton.disabled = true;
  stopButton.disabled = false;
  errorBox.textContent = '';
  status.textContent = 'Running…';
  let failed = false;
  try {
    const response = await fetch('/api/run', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
      signal: stopping.signal,
    });
    if (!response.ok || !response.body)
      throw new Error(`The server answered ${response.status}: ${await response.text()}`);
    const chunks = parseJsonEventStream({ stream: response.body, schema: uiMessageChunkSchema }).pipeThrough(
      new TransformStream<ParsedEvent, UIMessageChunk>({
        transform(result, controller) {
          if (!result.success) throw result.error;
          controller.enqueue(result.value);
        },
      }),
    );
    // The reader reports an `error` chunk and a broken stream (Stop included) to onError, then ends.
    // A resumed run goes on in the same assistant message, as useChat continues it.
    for await (const message of readUIMessageStream<SwarmUIMessage>({
      stream: chunks,
      ...(continued && { message: continued }),
      onError: (error) => {
        if (stopping?.signal.aborted) return;
        failed = true;
        errorBox.textContent = error instanceof Error ? error.message : String(error);
      },
    })) {
      assistantMessage = message;
      render(message);
    }
    const paused = assistantMessage?.parts.some(
      (p) => p.type === 'dynamic-tool' && p.state === 'approval-requested',
    );
    status.textContent = stopping.signal.aborted
      ? 'Stopped.'
      : failed
        ? 'The run failed.'
        : paused
          ? 'Waiting for your approval.'
          : 'Done.';
  } catch (error) {
    if (stopping.signal.aborted) status.textContent = 'Stopped.';
    else {
      status.textContent = 'The run failed.';
      errorBox.textContent = error instanceof Error ? error.message : String(error);
    }
  } finally {
    runButton.disabled = false;
    stopButton.disabled = true;
  }
}

/** Draws the whole message again: each part in order, indented by how deep its run is nested. */
function render(message: SwarmUIMessage): void {
  parts.replaceChildren(...message.parts.flatMap((part) => drawn(part)));
  for (const part of message.parts) {
    if (part.type === 'data-swarm-result') answer.textContent = part.data.output;
  }
}

function drawn(part: Part): HTMLElement[] {
  switch (part.type) {
    case 'data-swarm-run': {
      const { topology, path, status: state, error } = part.data;
      return [
        line('run', path, `▸ ${topology ?? path.at(-1)} · ${state}${error ? `: ${error}` : ''}`, state),
      ];
    }
    case 'data-swarm-agent': {
      const { agent, path, status: state } = part.data;
      return [line('agent', path, `${agent} · ${state}`, state, agent)];
    }
    case 'text': {
      const origin = part.providerMetadata?.swarm as { agent?: string; path?: string[] } | undefined;
      const node = line('text', origin?.path ?? [], '', part.state ?? 'done', origin?.agent);
      const who = document.createElement('span');
      who.className = 'who';
      who.textContent = origin?.agent ?? 'model';
      const body = document.createElement('span');
      body.className = 'body';
      body.textContent = part.text;
      node.append(who, body);
      return [node];
    }
    case 'dynamic-tool': {
      const origin = part.toolMetadata as { agent?: string; path?: string[] } | undefined;
      const result =
        part.state === 'output-available'
          ? ` → ${String(part.output)}`
          : part.state === 'output-error'
            ? ` → error: ${part.errorText}`
            : part.state === 'approval-requested'
              ? ' · needs your approval'
              : part.state === 'approval-responded'
                ? part.approval.approved
                  ? ' · approved'
                  : ' · rejected'
                : ' …';
      const node = line(
        'tool',
        origin?.path ?? [],
        `${part.toolName}(${JSON.stringify(part.input)})${result}`,
        part.state,
        origin?.agent,
      );
      if (part.state === 'approval-requested') {
        const id = part.approval.id;
        node.append(
          button('Approve', () => answerApproval(id, true)),
          button('Reject', () => answerApproval(id, false)),
        );
      }
      return [node];
    }
    default:
      return [];
  }
}

function line(
  kind: string,
  path: readonly string[],
  text: string,
  state: string,
  agent?: string,
): HTMLElement {
  const node = document.createElement('div');
  node.className = `part ${kind} ${state}`;
  node.style.marginLeft = `${Math.max(0, path.length - 1) * 1.5}em`;
  if (agent) node.dataset.agent = agent;
  node.textContent = text;
  return node;
}

function button(label: string, onClick: () => void): HTMLButtonElement {
  const node = document.createElement('button');
  node.type = 'button';
  node.className = `approval ${label.toLowerCase()}`;
  node.textContent = label;
  node.addEventListener('click', onClick, { once: true });
  return node;
}

function element<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`The page has no #${id}.`);
  return found as T;
}
