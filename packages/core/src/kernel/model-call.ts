import type { EventInput } from '../contracts/events.js';
import type { Model, ModelRequest, ModelResponse } from '../contracts/model.js';
import { AbortError, ModelError, SwarmError, throwIfAborted } from './errors.js';
import type { RunJournal } from './run-journal.js';
import type { RunState } from './run-state.js';

/**
 * The kernel's one model-call pipeline: the call gate (input guardrails), the journal (answered
 * from it, or made live and journaled before the answer is used), the budget, the limiter, the
 * events and the totals. `RunContext.callModel` is this; nothing else calls a model for a run.
 */
export function callModel(run: RunState, model: Model, request: ModelRequest): Promise<ModelResponse> {
  const gate = run.pendingGate();
  if (gate !== undefined) {
    // The first call runs beside the input guardrails; the others wait for them.
    if (gate.firstTaken) return gate.settled.then(() => callModel(run, model, request));
    gate.firstTaken = true;
  }
  if (run.journal) return journaledCall(run, run.journal, model, request);
  return callLive(run, model, request);
}

/** The error a model call rejects with for what a model rejected with. */
export function modelCallError(error: unknown, signal: AbortSignal | undefined, modelId: string): Error {
  if (SwarmError.isInstance(error)) return error;
  if (signal?.aborted) return new AbortError(undefined, { cause: error });
  if (error instanceof Error) return new ModelError(error.message, { provider: modelId, cause: error });
  return new ModelError(String(error), { provider: modelId, cause: error });
}

async function journaledCall(
  run: RunState,
  journal: RunJournal,
  model: Model,
  request: ModelRequest,
): Promise<ModelResponse> {
  if (!journal.isOpen) await journal.open();
  const slot = journal.modelSlot(run.pathKey, model.id, request);
  if (slot.response === undefined) {
    const response = await callLive(run, model, request);
    return journal.recordModel(slot.key, run.path, model.id, request, response);
  }
  // Answered from the journal: checked and counted as a live call is (so the budget takes the
  // same branches on every resume), without the limiter, which paces provider calls.
  throwIfAborted(request.signal);
  const refusal = refusalOf(run);
  if (refusal !== undefined) throw refusal.error;
  run.countCalls(1);
  run.countReplayed();
  const sequence = ++run.root.callSequence;
  if (run.listened) run.emit({ ...requestEvent(run, model, request, sequence), replayed: true });
  run.addUsage(slot.response.usage);
  if (run.listened)
    run.emit({ ...responseEvent(run, model, request, sequence, slot.response), replayed: true });
  return slot.response;
}

// A call made to the model (not answered from a journal). Not async, and nothing awaited: a run in
// flight holds no suspended frame of this call, and events are built only when someone listens.
function callLive(run: RunState, model: Model, request: ModelRequest): Promise<ModelResponse> {
  const refusal = refusalOf(run);
  if (refusal !== undefined) return Promise.reject(refusal.error);
  // The call's place in the budget is taken now, so concurrent calls cannot all pass the check;
  // it is given back if the call never starts (aborted, or refused after waiting for the limiter).
  run.countCalls(1);
  // Pairs this call's request, response and error events when calls of one agent run concurrently.
  const sequence = ++run.root.callSequence;
  const signal = request.signal ?? run.signal;
  const answered = (response: ModelResponse) => {
    if (run.listened) run.emit(responseEvent(run, model, request, sequence, response));
    return response;
  };
  if (!run.limiter) {
    let pending: Promise<ModelResponse>;
    try {
      pending = start(run, model, request, signal, sequence);
    } catch (error) {
      // Refused before it started (aborted, or the tokens are spent): its place is given back.
      return Promise.reject(failure(run, model, request, signal, sequence, error, false));
    }
    return pending.then(
      (response) => {
        run.addUsage(response.usage);
        return answered(response);
      },
      (error: unknown) => {
        throw failure(run, model, request, signal, sequence, error, true);
      },
    );
  }
  let started = false;
  return run.limiter
    .run(
      () => {
        const pending = start(run, model, request, signal, sequence);
        started = true;
        // Counted before the limiter slot is freed, so the call waiting for it sees these tokens.
        return pending.then((response) => {
          run.addUsage(response.usage);
          return response;
        });
      },
      { signal },
    )
    .then(answered, (error: unknown) => {
      throw failure(run, model, request, signal, sequence, error, started);
    });
}

// Why a call may not start (the run aborted, or its budget spent), or undefined when it may.
function refusalOf(run: RunState): { error: unknown } | undefined {
  try {
    throwIfAborted(run.signal);
    run.checkBudget();
    return undefined;
  } catch (error) {
    return { error };
  }
}

// Starts a model call: throws (not started) when the run was aborted or its tokens are spent,
// else emits `model.request` and returns the model's promise (a throwing listener or model rejects it).
function start(
  run: RunState,
  model: Model,
  request: ModelRequest,
  signal: AbortSignal | undefined,
  sequence: number,
): Promise<ModelResponse> {
  throwIfAborted(signal);
  // Tokens spent by calls that finished while this one waited for a limiter slot count too.
  run.checkTokens();
  // Started from here: what throws now (a listener, the model) rejects and counts as a failed call.
  try {
    if (run.listened) run.emit(requestEvent(run, model, request, sequence));
    const sent = signal ? { ...request, signal } : request;
    // Promise.resolve: a hand-written model whose `generate` returns its answer as is still works.
    return Promise.resolve(
      run.textDeltas && model.stream ? streamed(run, model, sent, sequence) : model.generate(sent),
    );
  } catch (error) {
    return Promise.reject(error);
  }
}

function requestEvent(run: RunState, model: Model, request: ModelRequest, sequence: number): EventInput {
  return {
    type: 'model.request',
    agent: request.metadata?.agent,
    purpose: request.metadata?.purpose,
    callId: `${run.runId}/${sequence}`,
    model: model.id,
    messages: request.messages.length,
  };
}

function responseEvent(
  run: RunState,
  model: Model,
  request: ModelRequest,
  sequence: number,
  response: ModelResponse,
): EventInput {
  return {
    type: 'model.response',
    agent: request.metadata?.agent,
    purpose: request.metadata?.purpose,
    callId: `${run.runId}/${sequence}`,
    model: model.id,
    finishReason: response.finishReason,
    toolCalls: response.toolCalls.map((c) => c.name),
    usage: response.usage,
    ...(response.responseId !== undefined && { responseId: response.responseId }),
    ...(response.responseModel !== undefined && { responseModel: response.responseModel }),
    // For traces and the report; @swarm/otel keeps it out of spans unless content capture is on.
    ...(response.reasoning !== undefined && { reasoning: { text: response.reasoning.text } }),
  };
}

// A call that failed: one that never started gives its place in the budget back; one that did
// emits `model.error`. Either way the error to throw is a swarm error.
function failure(
  run: RunState,
  model: Model,
  request: ModelRequest,
  signal: AbortSignal | undefined,
  sequence: number,
  error: unknown,
  started: boolean,
): Error {
  const normalized = modelCallError(error, signal, model.id);
  if (!started) {
    run.countCalls(-1);
    return normalized;
  }
  run.emit({
    type: 'model.error',
    agent: request.metadata?.agent,
    purpose: request.metadata?.purpose,
    callId: `${run.runId}/${sequence}`,
    model: model.id,
    error: normalized.message,
    ...(SwarmError.isInstance(normalized) && { code: normalized.code }),
  });
  return normalized;
}

// Emits the call's text as it streams; `callId` (as on `model.request`) tells apart the deltas of
// calls that stream at once, of one agent too.
async function streamed(
  run: RunState,
  model: Model,
  request: ModelRequest,
  sequence: number,
): Promise<ModelResponse> {
  const agent = request.metadata?.agent;
  const callId = `${run.runId}/${sequence}`;
  for await (const part of model.stream!(request)) {
    if (part.type === 'text-delta') run.emit({ type: 'model.delta', agent, callId, delta: part.delta });
    if (part.type === 'reasoning-delta')
      run.emit({ type: 'model.reasoning.delta', agent, callId, delta: part.delta });
    // A stream cut after some text is made again: what was streamed of it is void.
    if (part.type === 'restart') run.emit({ type: 'model.restart', agent, callId });
    if (part.type === 'finish') return part.response;
  }
  throw new ModelError(`The stream of ${model.id} ended without a finish event.`, { provider: model.id });
}
