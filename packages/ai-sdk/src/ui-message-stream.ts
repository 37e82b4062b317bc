import {
  AbortError,
  type Approvals,
  ConfigError,
  errorMessage,
  isAbort,
  isPause,
  type RunStream,
  SwarmError,
  type SwarmEvent,
  ToolError,
} from '@swarm/core';
import { createUIMessageStreamResponse, type UIMessage } from 'ai';
import { RunChunks, type RunResultLike } from './run-chunks.js';
import type { SwarmRunData, SwarmUIMessageChunk } from './ui-data-types.js';

/** Options of `toUIMessageStream`. */
export interface ToUIMessageStreamOptions {
  /**
   * The text of the `error` chunk the client gets when the run fails, of the `error` of a failed
   * run's or agent's data part (given an Error with the event's message and `code`), and of a failed
   * tool call's `tool-output-error` part (given a `ToolError`, code `TOOL`, whose message is the
   * tool's result text: the thrown error's message, a rejection's reason). The default names only
   * the error's code (`The run failed (MODEL).`, `failed (MODEL)` in run and agent parts,
   * `failed (TOOL)` in tool parts), as the AI SDK keeps server details from clients; pass
   * `errorMessage` (from `@swarm/core`) to send the message itself.
   */
  onError?: (error: unknown) => string;
  /** The id of the assistant message, sent in the `start` chunk (default: the client makes one). */
  messageId?: string;
}

/**
 * A run, as `toUIMessageStream` takes it: what `topology.stream(task)` returns, or a function that
 * starts it on the given signal, so that the consumer cancelling the stream aborts the run.
 */
export type RunSource<R extends RunResultLike = RunResultLike> =
  | RunStream<R>
  | ((signal: AbortSignal) => RunStream<R>);

/**
 * A run as an AI SDK UI message stream, so `useChat` (or `readUIMessageStream`) shows a multi-agent
 * run as it happens: each agent's text as it streams (`model.delta`), its tool calls and results
 * as dynamic tool parts, every run of the tree (nested ones with their `path`) as `data-swarm-run`
 * parts, each agent's turn as a `data-swarm-agent` part, and the answer as `data-swarm-result`.
 * A failed run ends with an `error` chunk, an aborted one with an `abort` chunk. A run that pauses
 * for approval sends the AI SDK's own `tool-approval-request` for each waiting call (its tool part
 * is then `approval-requested`, with the pending call's id as `approval.id`), marks its run part
 * `paused`, and finishes: answer with `addToolApprovalResponse`, then resume on the server with
 * `resumeFromMessages`.
 *
 * Cancelling the stream (the client went away) stops reading the run. Given a function
 * (`(signal) => team.stream(task, { signal })`), it also aborts the run; given a started run, the
 * run goes on unless its own signal is aborted (a request's signal, say).
 */
export function toUIMessageStream<R extends RunResultLike>(
  run: RunSource<R>,
  options: ToUIMessageStreamOptions = {},
): ReadableStream<SwarmUIMessageChunk> {
  checkRunSource(run);
  if (
    options.messageId !== undefined &&
    (typeof options.messageId !== 'string' || options.messageId === '')
  ) {
    throw new ConfigError('toUIMessageStream: messageId must be a non-empty string.');
  }
  const onError = options.onError ?? defaultErrorText;
  const abort = typeof run === 'function' ? new AbortController() : undefined;
  let cancelled = false;
  let iterator: AsyncIterator<SwarmEvent> | undefined;

  const pump = async (out: ReadableStreamDefaultController<SwarmUIMessageChunk>) => {
    const chunks = new RunChunks(
      options.onError === undefined
        ? {}
        : {
            errorText: (event) => onError(eventError(event)),
            toolErrorText: (event) => onError(toolEventError(event)),
          },
    );
    const send = (list: SwarmUIMessageChunk[]) => {
      if (!cancelled) for (const chunk of list) out.enqueue(chunk);
    };
    try {
      send([
        options.messageId === undefined ? { type: 'start' } : { type: 'start', messageId: options.messageId },
      ]);
      const stream = typeof run === 'function' ? run(abort!.signal) : run;
      iterator = stream[Symbol.asyncIterator]();
      for (;;) {
        const next = await iterator.next();
        if (next.done || cancelled) break;
        send(chunks.push(next.value));
      }
      if (cancelled) return;
      const result = await stream.result;
      send([
        ...chunks.closeAll(),
        ...chunks.finished(result),
        chunks.result(result),
        { type: 'finish', finishReason: result.interrupted ? 'other' : 'stop' },
      ]);
      out.close();
    } catch (error) {
      // The consumer left and the run was aborted for it: nobody is there to tell.
      if (cancelled) return;
      try {
        send(chunks.closeAll());
        if (isPause(error)) send(chunks.paused(error));
        send([
          // A pause is no failure: the message ends with its tool parts awaiting approval.
          isPause(error)
            ? { type: 'finish', finishReason: 'other' }
            : isAbort(error)
              ? { type: 'abort', reason: errorMessage(error) }
              : { type: 'error', errorText: onError(error) },
        ]);
        out.close();
      } catch (failure) {
        out.error(failure);
      }
    }
  };

  return new ReadableStream<SwarmUIMessageChunk>({
    start(out) {
      void pump(out);
    },
    cancel(reason) {
      cancelled = true;
      abort?.abort(new AbortError('The UI message stream was cancelled.', { cause: reason }));
      void iterator?.return?.();
    },
  });
}

function checkRunSource(run: unknown): void {
  if (typeof run === 'function') return;
  const stream = run as Partial<RunStream<unknown>> | null;
  if (
    typeof stream !== 'object' ||
    stream === null ||
    typeof stream[Symbol.asyncIterator] !== 'function' ||
    !(stream.result instanceof Promise)
  ) {
    throw new ConfigError(
      "toUIMessageStream: expected what a topology's stream(task) returns (an async iterable of events with a result promise), or a function (signal) => stream.",
    );
  }
}

// A failed run's or agent's event as an Error for onError: its message and its code.
function eventError(event: SwarmEvent): Error {
  const error = new Error(typeof event.error === 'string' ? event.error : 'failed');
  if (typeof event.code === 'string') Object.assign(error, { code: event.code });
  return error;
}

// A failed tool call's result as a ToolError for onError: the text the tool's result holds.
function toolEventError(event: SwarmEvent): ToolError {
  return new ToolError(
    typeof event.tool === 'string' ? event.tool : 'tool',
    typeof event.result === 'string' ? event.result : 'failed',
  );
}

function defaultErrorText(error: unknown): string {
  return SwarmError.isInstance(error) ? `The run failed (${error.code}).` : 'The run failed.';
}

/** Response options of `toUIMessageStreamResponse`: status, headers, SSE keep-alive (the AI SDK's). */
export type UIMessageStreamResponseInit = Omit<Parameters<typeof createUIMessageStreamResponse>[0], 'stream'>;

/**
 * A run as a streaming HTTP `Response` (server-sent events, the AI SDK's headers) for a route
 * handler that `useChat` posts to: `return toUIMessageStreamResponse((signal) => team.stream(task, { signal }))`.
 */
export function toUIMessageStreamResponse<R extends RunResultLike>(
  run: RunSource<R>,
  options: ToUIMessageStreamOptions & UIMessageStreamResponseInit = {},
): Response {
  const { onError, messageId, ...init } = options;
  return createUIMessageStreamResponse({
    ...init,
    stream: toUIMessageStream(run, {
      ...(onError !== undefined && { onError }),
      ...(messageId !== undefined && { messageId }),
    }),
  });
}

/** A paused run to go on with, as `resumeFromMessages` reads it from a client's messages. */
export interface UIResume {
  /** The paused (outermost) run's id: give it back as `runId`, with the same journal. */
  runId: string;
  /** The decisions the client gave, by pending call id, as `run(task, { approvals })` takes them. */
  approvals: Approvals;
  /** The ids the run waits for that have no decision yet (the run would pause on them again). */
  undecided: string[];
}

/**
 * The decisions a `useChat` client sent for a paused run: the last assistant message's outermost
 * `paused` run part names the run, and each tool part the user answered with
 * `addToolApprovalResponse({ id, approved, reason })` (state `approval-responded`, or
 * `output-denied`) gives a decision; a reason of a rejection is what the model reads. Undefined
 * when the last assistant message is no paused run. Resume the run with them:
 *
 * ```ts
 * const resume = resumeFromMessages(body.messages);
 * const stream = toUIMessageStream((signal) =>
 *   team.stream(task, { signal, journal, runId: resume.runId, approvals: resume.approvals }));
 * ```
 *
 * Only ids the run waits for are taken: a client cannot approve a call it was not asked about.
 */
export function resumeFromMessages(messages: readonly UIMessage[]): UIResume | undefined {
  if (!Array.isArray(messages)) {
    throw new ConfigError('resumeFromMessages: expected the UI messages a useChat client sent.');
  }
  const last = [...messages].reverse().find((m) => m?.role === 'assistant');
  if (last === undefined || !Array.isArray(last.parts)) return undefined;
  let run: SwarmRunData | undefined;
  for (const part of last.parts) {
    if (part.type !== 'data-swarm-run') continue;
    const data = (part as { data?: SwarmRunData }).data;
    if (data?.status === 'paused' && data.parentRunId === undefined) run = data;
  }
  if (run === undefined) return undefined;
  const waiting = new Set(run.pending ?? []);
  const approvals: Approvals = {};
  for (const part of last.parts) {
    const { state, approval } = part as {
      state?: string;
      approval?: { id?: unknown; approved?: unknown; reason?: unknown };
    };
    if (state !== 'approval-responded' && state !== 'output-denied') continue;
    if (typeof approval?.id !== 'string' || !waiting.has(approval.id)) continue;
    if (typeof approval.approved !== 'boolean') continue;
    approvals[approval.id] =
      !approval.approved && typeof approval.reason === 'string' && approval.reason !== ''
        ? { approved: false, message: approval.reason }
        : { approved: approval.approved };
  }
  return { runId: run.runId, approvals, undecided: [...waiting].filter((id) => !(id in approvals)) };
}
