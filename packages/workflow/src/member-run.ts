import {
  type BudgetReason,
  budgetStop,
  errorMessage,
  isTopology,
  type Member,
  type Message,
  mapSettled,
  memberTurn,
  messageText,
  nonEmptyAnswer,
  type RunContext,
  runMember,
  SwarmError,
  settledStop,
  throwIfAborted,
  turnsAsText,
} from '@swarm/core';
import type { z } from 'zod';

/** One member's answer, named by the member (or node) that gave it. */
export interface MemberOutput {
  agent: string;
  output: string;
}

/**
 * What became of one member's run: it answered, it failed (the error's message and code), or it
 * never ran (`reason` says why: a budget stop, or a failed parent in a graph).
 */
export type MemberRecord =
  | { agent: string; status: 'done'; output: string }
  | { agent: string; status: 'failed'; error: string; code?: string }
  | { agent: string; status: 'skipped'; reason: string };

/** One member's output, and the budget stop of a nested topology that answered from what it had. */
export interface StepOutcome {
  output: string;
  /** The member's final output: its validated object when typed (by `outputType` or its own), else its text. */
  finalOutput: unknown;
  interruption?: BudgetReason;
}

/** The task as the first turn of a member's input. */
export function taskTurn(task: string): Message {
  return { role: 'user', content: task };
}

/**
 * What a member gets after others: the task, then each earlier member's output as that member's
 * turn (typed turns, never one pasted transcript). With nothing before it, just the task. The
 * member's own earlier output (`self`) is an `assistant` turn, unless it would close the input:
 * a trailing assistant turn reads as a prefill to some providers, so there it stays a named turn.
 */
export function handOn(task: string, previous: readonly MemberOutput[], self?: string): string | Message[] {
  if (previous.length === 0) return task;
  return [
    taskTurn(task),
    ...previous.map(
      (p, i): Message =>
        p.agent === self && i < previous.length - 1
          ? { role: 'assistant', content: p.output }
          : memberTurn(p.agent, p.output),
    ),
  ];
}

/** Several members' outputs as one answer: a single output as it is, several as named blocks. */
export function joinOutputs(outputs: readonly MemberOutput[]): string {
  if (outputs.length === 1) return outputs[0]!.output;
  return turnsAsText(outputs.map((o) => memberTurn(o.agent, o.output)));
}

/**
 * Runs one member in the run. A topology reads its input as text, where an `assistant` turn would
 * be headed "[assistant]": its own earlier outputs go to it under its name instead. A nested
 * topology that stopped on the run's budget still answers; its budget stop is reported so the
 * workflow stops and marks itself interrupted too.
 */
export async function runStep(
  member: Member,
  input: string | Message[],
  context: RunContext,
  outputType?: z.ZodObject,
): Promise<StepOutcome> {
  const given =
    isTopology(member) && typeof input !== 'string'
      ? input.map((m) => (m.role === 'assistant' ? memberTurn(member.name, messageText(m)) : m))
      : input;
  // A step that answers empty hands nothing on: it is asked once more, then the workflow fails.
  const { output, finalOutput, result } = await nonEmptyAnswer(member.name, context, () =>
    runMember(member, given, context, outputType ? { outputType } : undefined),
  );
  const reason =
    'interrupted' in result && result.interrupted ? budgetReason(result.interruptionReason) : undefined;
  return reason ? { output, finalOutput, interruption: reason } : { output, finalOutput };
}

/** What one turn of a sequence produced, and the budget stop of a nested topology that still answered. */
export interface TurnOutcome<T> {
  value: T;
  interruption?: BudgetReason;
}

/** The turns a sequence completed, and the budget stop that ended it early, if any. */
export interface SequenceOutcome<T> {
  done: T[];
  interruption?: BudgetReason;
}

/**
 * Runs `count` turns one after another, each given what the turns before it produced. A budget
 * stop ends the sequence with the turns done so far (a turn the budget refused is not among them);
 * when not even the first turn answered, the budget error is rethrown. Any other error is rethrown.
 */
export async function runInTurn<T>(
  count: number,
  turn: (index: number, done: readonly T[]) => Promise<TurnOutcome<T>>,
): Promise<SequenceOutcome<T>> {
  const done: T[] = [];
  for (let index = 0; index < count; index++) {
    let interruption: BudgetReason | undefined;
    try {
      const outcome = await turn(index, done);
      done.push(outcome.value);
      interruption = outcome.interruption;
    } catch (error) {
      interruption = budgetStop(error);
      if (!interruption || done.length === 0) throw error;
    }
    if (interruption) return { done, interruption };
  }
  return { done };
}

/** One member's job in a settled batch: who runs, under which name, on what input. */
export interface MemberJob {
  agent: string;
  member: Member;
  input: string | Message[];
}

/** The settled outcome of a batch of members, in input order. */
export interface SettledBatch {
  records: MemberRecord[];
  /** What each member threw (undefined for those that answered), for callers that rethrow. */
  errors: unknown[];
  /** Set when the budget stopped a member: those members are `skipped`, not `failed`. */
  interruption?: BudgetReason;
}

/**
 * Runs members concurrently (at most `concurrency` at once) and settles them in input order: one
 * failure loses no sibling's work. An abort is rethrown; a budget stop marks the member skipped and
 * the batch interrupted; anything else is the member's failure.
 */
export async function runSettled(
  jobs: readonly MemberJob[],
  context: RunContext,
  concurrency = Number.POSITIVE_INFINITY,
): Promise<SettledBatch> {
  const settled = await mapSettled(jobs, (job) => runStep(job.member, job.input, context), {
    concurrency,
    signal: context.signal,
  });
  throwIfAborted(context.signal);
  // `settledStop` rethrows an abort among the members. Its budget stop is not taken as the batch's:
  // members are read in input order below, where a nested topology's own budget stop counts too.
  settledStop(settled);
  const batch: SettledBatch = { records: [], errors: [] };
  settled.forEach((outcome, i) => {
    const { agent } = jobs[i]!;
    if (outcome.status === 'fulfilled') {
      batch.records.push({ agent, status: 'done', output: outcome.value.output });
      batch.errors.push(undefined);
      batch.interruption ??= outcome.value.interruption;
      return;
    }
    const error = outcome.reason;
    batch.errors.push(error);
    const reason = budgetStop(error);
    if (reason) {
      batch.records.push({ agent, status: 'skipped', reason });
      batch.interruption ??= reason;
    } else {
      batch.records.push(failedRecord(agent, error));
    }
  });
  return batch;
}

/** The record of a member that threw. */
export function failedRecord(agent: string, error: unknown): MemberRecord {
  const code = SwarmError.isInstance(error) ? error.code : undefined;
  return { agent, status: 'failed', error: errorMessage(error), ...(code && { code }) };
}

/**
 * The outputs of a batch's members that answered, in input order. With none, there is nothing to
 * answer from: the batch's first error (in input order) is thrown.
 */
export function batchAnswers(batch: SettledBatch): MemberOutput[] {
  const answers = doneOutputs(batch.records);
  if (answers.length === 0) throw batch.errors.find((e) => e !== undefined);
  return answers;
}

/** The outputs of the members that answered, in input order. */
export function doneOutputs(records: readonly MemberRecord[]): MemberOutput[] {
  return records.flatMap((r) => (r.status === 'done' ? [{ agent: r.agent, output: r.output }] : []));
}

function budgetReason(reason: string | undefined): BudgetReason | undefined {
  return reason === 'budget:calls' || reason === 'budget:tokens' ? reason : undefined;
}
