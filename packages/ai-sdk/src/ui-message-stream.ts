import {
  AbortError,
  ConfigError,
  errorMessage,
  isAbort,
  type RunStream,
  SwarmError,
  type SwarmEvent,
} from '@swarm/core';
import { createUIMessageStreamResponse } from 'ai';
import { RunChunks, type RunResultLike } from './run-chunks.js';
import type { SwarmUIMessageChunk } from './ui-data-types.js';

/** Options of `toUIMessageStream`. */
export interface ToUIMessageStreamOptions {
  /**
   * The text of the `error` chunk the client gets when the run fails, and of the `error` of a failed
   * run's or agent's data part (given an Error with the event's message and `code`). The default
   * names only the error's code (`The run failed (MODEL).`, `failed (MODEL)` in parts), as the AI
   * SDK keeps server details from clients; pass `errorMessage` (from `@swarm/core`) to send the
   * message itself.
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
 * A failed run ends with an `error` chunk, an aborted one with an `abort` chunk.
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
      options.onError === undefined ? {} : { errorText: (event) => onError(eventError(event)) },
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
        chunks.result(result),
        { type: 'finish', finishReason: result.interrupted ? 'other' : 'stop' },
      ]);
      out.close();
    } catch (error) {
      // The consumer left and the run was aborted for it: nobody is there to tell.
      if (cancelled) return;
      try {
        send(chunks.closeAll());
        send([
          isAbort(error)
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
