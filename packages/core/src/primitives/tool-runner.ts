import type { PendingApproval } from '../contracts/approval.js';
import type { ModelResponse, ToolCall } from '../contracts/model.js';
import { errorMessage, isAbort, isPause, RunPausedError, throwIfAborted } from '../kernel/errors.js';
import type { ToolCallEntry } from '../kernel/journal.js';
import { journalOf, pathKeyOf, pendingGateOf, type RunContext, rootOf } from '../kernel/run-context.js';
import { approvalId, argumentsHash, type RunJournal } from '../kernel/run-journal.js';
import { isRunStop } from '../kernel/run-stop.js';
import { executeWithin } from './timed-tool.js';
import { describeZodError, type Tool, type ToolContext } from './tool.js';

/** One executed tool call, with what it returned. */
export interface ToolCallRecord {
  call: ToolCall;
  /** The text sent back to the model. */
  result: string;
  /** True when the tool threw or its arguments failed validation. */
  isError: boolean;
  /** True when the call was answered as not executed (it came after a run-ending call). */
  skipped?: boolean;
}

/** Who runs the tool calls: the agent's name (on events and tool contexts) and its default time limit. */
export interface ToolRunner {
  readonly name: string;
  readonly toolTimeoutMs: number | undefined;
}

/**
 * The one tool runner: runs one response's tool calls concurrently, each answered from the journal
 * when it holds the execution, else validated, put to a person first when the tool needs approval,
 * executed within its time limit and journaled before its answer is used. A successful call of an
 * `endsRun` tool ends the turn: calls after it are not started and are answered as not executed.
 * Calls that wait for approval, and pauses from runs nested in a call, end the turn with one
 * RunPausedError once every other call of the turn has finished; a call that stopped the run (an
 * abort, a tripped guardrail, a spent budget) wins over a pause, so its error is never dropped.
 */
export async function runToolCalls(
  agent: ToolRunner,
  response: ModelResponse,
  byName: ReadonlyMap<string, Tool>,
  context: RunContext,
): Promise<(ToolCallRecord & { value?: unknown })[]> {
  const calls = response.toolCalls;
  // Input guardrails still running hold the tools too: no side effect of an unchecked input.
  const gate = pendingGateOf(context);
  if (gate !== undefined) {
    await gate;
    throwIfAborted(context.signal);
  }
  // One call (the usual case): nothing to run beside it, nothing after it to skip.
  if (calls.length === 1) {
    const outcome = await runTool(agent, calls[0]!, byName.get(calls[0]!.name), context, response, 0);
    if ('pending' in outcome) throw new RunPausedError([outcome.pending]);
    return [outcome];
  }
  const firstEnding = calls.findIndex((c) => byName.get(c.name)?.endsRun);
  const runnable = firstEnding === -1 ? calls : calls.slice(0, firstEnding + 1);
  const executed = settledRecords(
    await Promise.allSettled(
      runnable.map((call, index) => runTool(agent, call, byName.get(call.name), context, response, index)),
    ),
  );
  if (runnable.length === calls.length) return executed;
  const ending = executed.at(-1);
  const reason =
    ending && !ending.isError
      ? `${ending.call.name} ended this turn first.`
      : `${ending?.call.name} came first in this response and failed; call again if it is still needed.`;
  const skipped = calls.slice(runnable.length).map((call): ToolCallRecord => {
    const result = `Not executed: ${reason}`;
    context.emit({
      type: 'tool.result',
      agent: agent.name,
      tool: call.name,
      toolCallId: call.id,
      result,
      isError: true,
      skipped: true,
    });
    return { call, result, isError: true, skipped: true };
  });
  return [...executed, ...skipped];
}

// One tool call: answered from the journal when it holds the execution; else validated, put to
// a person first when the tool needs approval, executed, and journaled before its answer is used.
async function runTool(
  agent: ToolRunner,
  call: ToolCall,
  t: Tool | undefined,
  context: RunContext,
  response: ModelResponse,
  index: number,
): Promise<ToolOutcome> {
  const journal = journalOf(context);
  const slot = t?.journaled === false ? undefined : journal?.toolSlot(response, index);
  if (slot?.entry) return replayedTool(agent, call, slot.entry, context);
  context.emit({
    type: 'tool.call',
    agent: agent.name,
    tool: call.name,
    toolCallId: call.id,
    arguments: call.arguments,
  });
  if (!t) {
    return finish(agent, context, {
      call,
      result: `Error: there is no tool named "${call.name}".`,
      isError: true,
    });
  }
  if (call.invalidArguments !== undefined) {
    return finish(agent, context, {
      call,
      result: 'Invalid arguments: they were not valid JSON. Try again.',
      isError: true,
    });
  }
  const parsed = t.parameters.safeParse(call.arguments);
  if (!parsed.success) {
    return finish(agent, context, {
      call,
      result: `Invalid arguments: ${describeZodError(parsed.error)}. Try again.`,
      isError: true,
    });
  }
  let approved: boolean | undefined;
  if (t.needsApproval) {
    const asked = await approvalOf(agent, t, parsed.data, call, context, journal, slot?.key);
    if (asked !== true)
      return asked.record ? kept(agent, context, journal, slot?.key, asked.record, false) : asked;
    approved = true;
  }
  // Journaled before it runs: a process killed while it runs never runs it again on resume.
  if (journal && slot) await journal.recordStart(slot.key, agent.name, t.name, call.id, context.path);
  let record: ToolCallRecord & { value?: unknown };
  try {
    const value = await executeWithin(
      t.name,
      (signal) => t.execute(parsed.data, { agent: agent.name, toolCallId: call.id, signal, run: context }),
      context.signal,
      t.timeoutMs ?? agent.toolTimeoutMs,
    );
    const result = stringify(value);
    record = t.endsRun ? { call, result, isError: false, value } : { call, result, isError: false };
  } catch (error) {
    if (isRunStop(error)) throw error;
    record = { call, result: `Error: ${errorMessage(error)}`, isError: true };
  }
  return kept(agent, context, journal, slot?.key, record, approved);
}

// Whether a call of a tool with `needsApproval` may run: `true` when it needs no approval here or
// was approved; the pending call when no decision was given (the run pauses); a record for a
// rejected call (its message as a tool error) or a `needsApproval` that threw.
async function approvalOf(
  agent: ToolRunner,
  t: Tool,
  args: Record<string, unknown>,
  call: ToolCall,
  context: RunContext,
  journal: RunJournal | undefined,
  key: string | undefined,
): Promise<true | { pending: PendingApproval; record?: undefined } | { record: ToolCallRecord }> {
  const runId = journal?.runId ?? rootOf(context).runId;
  const approval: PendingApproval = {
    id:
      journal && key !== undefined
        ? journal.approvalId(key, t.name, call.arguments)
        : approvalId(runId, `${pathKeyOf(context)}/${agent.name}/${call.id}`, t.name, call.arguments),
    runId,
    path: [...context.path],
    agent: agent.name,
    tool: t.name,
    arguments: call.arguments,
    argumentsHash: argumentsHash(t.name, call.arguments),
  };
  // A decision (journaled, or given to this resume) is read first: never re-derived from needsApproval.
  const decision =
    journal && key !== undefined ? await journal.decide(approval.id, key) : journal?.decision(approval.id);
  const waited = decision === undefined && journal !== undefined && key !== undefined && journal.waited(key);
  if (decision === undefined && !waited && typeof t.needsApproval === 'function') {
    const toolContext: ToolContext = {
      agent: agent.name,
      toolCallId: call.id,
      signal: context.signal,
      run: context,
    };
    try {
      if (!(await t.needsApproval(args, toolContext))) return true;
    } catch (error) {
      if (isRunStop(error)) throw error;
      return { record: { call, result: `Error: ${errorMessage(error)}`, isError: true } };
    }
  }
  if (decision === undefined) {
    if (journal && key !== undefined) await journal.recordPending(key, approval);
    context.emit({
      type: 'approval.pending',
      agent: agent.name,
      tool: t.name,
      toolCallId: call.id,
      approval,
    });
    return { pending: approval };
  }
  if (decision.approved) return true;
  return {
    record: {
      call,
      result: decision.message ?? 'A person rejected this call; it was not executed.',
      isError: true,
    },
  };
}

// A tool call's answer, journaled (when the run has a journal) before the run uses it.
async function kept(
  agent: ToolRunner,
  context: RunContext,
  journal: RunJournal | undefined,
  key: string | undefined,
  record: ToolCallRecord & { value?: unknown },
  approved: boolean | undefined,
): Promise<ToolCallRecord & { value?: unknown }> {
  if (journal && key !== undefined) {
    const ended = 'value' in record;
    await journal.recordTool({
      type: 'tool',
      key,
      path: [...context.path],
      agent: agent.name,
      tool: record.call.name,
      toolCallId: record.call.id,
      result: record.result,
      isError: record.isError,
      ...(ended && { ended, value: record.value }),
      ...(approved !== undefined && { approved }),
    });
  }
  return finish(agent, context, record);
}

// Emits a tool call's `tool.result` and returns its record.
function finish<R extends ToolCallRecord>(agent: ToolRunner, context: RunContext, record: R): R {
  context.emit({
    type: 'tool.result',
    agent: agent.name,
    tool: record.call.name,
    toolCallId: record.call.id,
    result: record.result,
    isError: record.isError,
  });
  return record;
}

// A tool call the journal answers: its events (marked replayed) and the journaled record.
function replayedTool(
  agent: ToolRunner,
  call: ToolCall,
  stored: ToolCallEntry,
  context: RunContext,
): ToolCallRecord & { value?: unknown } {
  const { name: tool, id: toolCallId } = call;
  context.emit({
    type: 'tool.call',
    agent: agent.name,
    tool,
    toolCallId,
    arguments: call.arguments,
    replayed: true,
  });
  const { result, isError } = stored;
  context.emit({
    type: 'tool.result',
    agent: agent.name,
    tool,
    toolCallId,
    result,
    isError,
    replayed: true,
  });
  return stored.ended ? { call, result, isError, value: stored.value } : { call, result, isError };
}

/** One tool call's outcome: its record, or the approval it waits for. */
type ToolOutcome = (ToolCallRecord & { value?: unknown }) | { pending: PendingApproval };

// The records of a turn's tool calls once all have settled, or the run stop among them: an abort
// first, then any other stop (a tripped guardrail, a spent budget: the run cannot go on whatever a
// person decides), then every call that waits for approval (with the pauses of runs nested in
// calls) as one RunPausedError. The sibling calls' records are journaled before this.
function settledRecords(
  settled: PromiseSettledResult<ToolOutcome>[],
): (ToolCallRecord & { value?: unknown })[] {
  const records: (ToolCallRecord & { value?: unknown })[] = [];
  const pending: PendingApproval[] = [];
  let stop: unknown;
  for (const outcome of settled) {
    if (outcome.status === 'rejected') {
      if (isAbort(outcome.reason)) throw outcome.reason;
      if (isPause(outcome.reason)) pending.push(...outcome.reason.pending);
      else stop ??= { error: outcome.reason };
    } else if ('pending' in outcome.value) pending.push(outcome.value.pending);
    else records.push(outcome.value);
  }
  if (stop !== undefined) throw (stop as { error: unknown }).error;
  if (pending.length > 0) throw new RunPausedError(pending);
  return records;
}

function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value);
}
