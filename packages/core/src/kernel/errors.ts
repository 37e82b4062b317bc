import type { PendingApproval } from '../contracts/approval.js';
import type { Usage } from '../contracts/model.js';
import { redactSecrets } from './redact-secrets.js';
import { emptyUsage } from './usage.js';

const marker = Symbol.for('@swarm/core/error');

/** Stable machine-readable codes of every swarm error. */
export type SwarmErrorCode =
  | 'CONFIG'
  | 'MODEL'
  | 'STRUCTURED_OUTPUT'
  | 'TOOL'
  | 'BUDGET_EXCEEDED'
  | 'MAX_TURNS_EXCEEDED'
  | 'NO_ROUTE'
  | 'NO_ANSWER'
  | 'SESSION_CONFLICT'
  | 'RUN_PAUSED'
  | 'GUARDRAIL_TRIPWIRE'
  | 'REFUSED'
  | 'ABORTED'
  | 'RUN_LOCKED'
  | 'JOURNAL_WRITE'
  | 'APPROVAL_CONFLICT';

/** Base of every error swarm throws; `isInstance` works across duplicate copies of the package. */
export class SwarmError extends Error {
  readonly [marker] = true;
  readonly code: SwarmErrorCode;

  constructor(code: SwarmErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SwarmError';
    this.code = code;
  }

  /** True for any swarm error, even one thrown by another copy of `@swarm/core`. */
  static isInstance(error: unknown): error is SwarmError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }
}

/** Bad options or arguments: names the argument and what is accepted. */
export class ConfigError extends SwarmError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('CONFIG', message, options);
    this.name = 'ConfigError';
  }
}

/** A provider call failed after its retries (or was refused a retry it would have had to wait too long for). */
export class ModelError extends SwarmError {
  readonly status: number | undefined;
  readonly provider: string;
  /** True when the same call may succeed later: a rate limit, a server error, a network failure, a timeout. */
  readonly retryable: boolean;
  /** The wait the provider asked for (Retry-After) when it was longer than `maxRetryDelayMs`. */
  readonly retryAfterMs: number | undefined;

  constructor(
    message: string,
    details: {
      provider: string;
      status?: number | undefined;
      retryable?: boolean;
      retryAfterMs?: number | undefined;
      cause?: unknown;
    },
  ) {
    super('MODEL', message, { cause: details.cause });
    this.name = 'ModelError';
    this.provider = details.provider;
    this.status = details.status;
    this.retryable = details.retryable ?? false;
    this.retryAfterMs = details.retryAfterMs;
  }
}

/**
 * The model refused to answer: an OpenAI `refusal`, or an Anthropic `stop_reason: "refusal"`.
 * Not retryable (the same request is refused again). A provider option (`refusals: 'answer'`)
 * makes the adapter return the refusal as the answer instead.
 */
export class RefusalError extends SwarmError {
  readonly provider: string;
  /** The policy category the provider named (Anthropic's `stop_details.category`: `'cyber'`, `'bio'`, ...). */
  readonly category: string | undefined;
  /** The provider's explanation: OpenAI's refusal text, Anthropic's `stop_details.explanation`. */
  readonly explanation: string | undefined;
  /** Always false: a refusal is not a passing fault. */
  readonly retryable = false;

  constructor(
    message: string,
    details: {
      provider: string;
      category?: string | undefined;
      explanation?: string | undefined;
      cause?: unknown;
    },
  ) {
    super('REFUSED', message, { cause: details.cause });
    this.name = 'RefusalError';
    this.provider = details.provider;
    this.category = details.category;
    this.explanation = details.explanation;
  }
}

/** The model did not produce a valid function call within the allowed repairs. */
export class StructuredOutputError extends SwarmError {
  /** The validation problem of each attempt, in order. */
  readonly attempts: string[];

  constructor(message: string, attempts: string[], options?: { cause?: unknown }) {
    super('STRUCTURED_OUTPUT', message, options);
    this.name = 'StructuredOutputError';
    this.attempts = attempts;
  }
}

/** A tool failed; inside an agent this becomes the tool result, never a crash of the run. */
export class ToolError extends SwarmError {
  readonly tool: string;

  constructor(tool: string, message: string, options?: { cause?: unknown }) {
    super('TOOL', message, options);
    this.name = 'ToolError';
    this.tool = tool;
  }
}

/** The next call would pass the run's budget of calls or tokens. */
export class BudgetExceededError extends SwarmError {
  readonly reason: 'budget:calls' | 'budget:tokens';

  constructor(reason: 'budget:calls' | 'budget:tokens', message: string) {
    super('BUDGET_EXCEEDED', message);
    this.name = 'BudgetExceededError';
    this.reason = reason;
  }
}

/** An agent's tool loop ran `maxTurns` model calls without a final answer. */
export class MaxTurnsExceededError extends SwarmError {
  readonly agent: string;
  readonly maxTurns: number;

  constructor(agent: string, maxTurns: number) {
    super('MAX_TURNS_EXCEEDED', `Agent "${agent}" reached maxTurns (${maxTurns}) without a final answer.`);
    this.name = 'MaxTurnsExceededError';
    this.agent = agent;
    this.maxTurns = maxTurns;
  }
}

/** No agent is relevant to a task and no fallback is configured. */
export class NoRouteError extends SwarmError {
  readonly task: string;

  constructor(task: string, message?: string) {
    super('NO_ROUTE', message ?? `No agent is relevant to the task: ${JSON.stringify(task.slice(0, 120))}`);
    this.name = 'NoRouteError';
    this.task = task;
  }
}

/**
 * A session changed under a save: another process (or Team) saved a turn since this run read the
 * session, and saving would have dropped it. Run the message again on the fresh history.
 */
export class SessionConflictError extends SwarmError {
  readonly sessionId: string;

  constructor(sessionId: string, message?: string, options?: { cause?: unknown }) {
    super(
      'SESSION_CONFLICT',
      message ??
        `Session ${JSON.stringify(sessionId)} was saved by another writer since it was read; nothing was overwritten. Run the message again on the fresh history.`,
      options,
    );
    this.name = 'SessionConflictError';
    this.sessionId = sessionId;
  }
}

/** The run was cancelled through its AbortSignal. */
export class AbortError extends SwarmError {
  constructor(message = 'The run was aborted.', options?: { cause?: unknown }) {
    super('ABORTED', message, options);
    this.name = 'AbortError';
  }
}

/**
 * The run reached tool calls that need a person's approval (`needsApproval`): those calls were not
 * executed, the run's other branches finished, and the run stopped here. Not a failure: run it
 * again with the same `journal` and `runId` and `approvals` for the `pending` ids to resume it.
 */
export class RunPausedError extends SwarmError {
  /** The id of the paused (outermost) run: give it back as `runId` to resume. */
  readonly runId: string;
  /** Every call that waits for a decision, from every branch of the run (plain, serializable data). */
  readonly pending: PendingApproval[];

  /** What the run had used when it paused, nested runs included, as a result's `usage` reports it. */
  readonly usage: Usage;
  /** The model calls the run made before it paused, nested runs included (as a result's `llmCalls`). */
  readonly llmCalls: number;
  /** Of `llmCalls`, how many were answered from the journal. */
  readonly replayedCalls: number;
  /** Of `llmCalls`, how many went to a model: what this attempt cost. */
  readonly liveCalls: number;

  constructor(pending: readonly PendingApproval[], options?: { cause?: unknown; totals?: RunTotals }) {
    const list = pending.map((p) => `${p.tool} (${p.agent}, id ${p.id})`).join(', ');
    super(
      'RUN_PAUSED',
      `The run waits for approval of ${pending.length} tool call(s): ${list}. Run it again with the same journal and runId, and approvals for these ids.`,
      options,
    );
    this.name = 'RunPausedError';
    this.runId = pending[0]?.runId ?? '';
    this.pending = [...pending];
    const totals = options?.totals;
    this.usage = totals ? { ...totals.usage } : emptyUsage();
    this.llmCalls = totals?.llmCalls ?? 0;
    this.replayedCalls = totals?.replayedCalls ?? 0;
    this.liveCalls = totals?.liveCalls ?? 0;
  }

  /** The same pause with the totals of the run that ends with it (set where the run closes). */
  withTotals(totals: RunTotals): RunPausedError {
    return new RunPausedError(this.pending, { cause: this.cause, totals });
  }

  /** One pause listing every call the given pauses wait for (each once), in the order given. */
  static merge(pauses: readonly RunPausedError[]): RunPausedError {
    if (pauses.length === 1) return pauses[0]!;
    const byId = new Map<string, PendingApproval>();
    for (const pause of pauses) for (const p of pause.pending) if (!byId.has(p.id)) byId.set(p.id, p);
    return new RunPausedError([...byId.values()]);
  }
}

/** A run's totals so far, nested runs included: what a result and a pause report. */
export interface RunTotals {
  usage: Usage;
  llmCalls: number;
  replayedCalls: number;
  liveCalls: number;
}

/** True when `error` is a pause (`RunPausedError`, code `'RUN_PAUSED'`), from any copy of the package. */
export function isPause(error: unknown): error is RunPausedError {
  return SwarmError.isInstance(error) && error.code === 'RUN_PAUSED';
}

/**
 * A guardrail tripped: the run ended before its input reached the model or its output reached the
 * user. `guardrail` names it, `kind` says which side it guards, `info` is what it reported.
 */
export class GuardrailTripwireError extends SwarmError {
  readonly guardrail: string;
  readonly kind: 'input' | 'output';
  readonly info: unknown;

  constructor(guardrail: string, kind: 'input' | 'output', info: unknown, options?: { cause?: unknown }) {
    super('GUARDRAIL_TRIPWIRE', `The ${kind} guardrail "${guardrail}" tripped.`, options);
    this.name = 'GuardrailTripwireError';
    this.guardrail = guardrail;
    this.kind = kind;
    this.info = info;
  }
}

/** True for a `GuardrailTripwireError`, from any copy of the package. */
export function isTripwire(error: unknown): error is GuardrailTripwireError {
  return SwarmError.isInstance(error) && error.code === 'GUARDRAIL_TRIPWIRE';
}

/** Throws an AbortError when the signal has fired; call before starting work. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortError(undefined, { cause: signal.reason });
}

/** True when `error` is an abort: topologies rethrow it, never record it as a member's failure. */
export function isAbort(error: unknown): boolean {
  return SwarmError.isInstance(error) && error.code === 'ABORTED';
}

/** A readable message for anything thrown. */
export function errorMessage(error: unknown): string {
  return redactSecrets(error instanceof Error ? error.message : String(error));
}

/** Who holds (or last held) a run's lease in its journal store: what `RunLockedError` names. */
export interface LeaseHolder {
  /** A name for the holder: `pid@host` for a process, or what the store was given (a worker and job). */
  id: string;
  pid?: number;
  host?: string;
  /** When the holder took (or last renewed) the lease, ISO 8601. */
  at?: string;
}

/**
 * Another process holds the run: it is being executed elsewhere (`swarm resume` twice, a worker and
 * a stalled-job takeover), or this process lost its lease to a newer holder and its appends are
 * refused (fencing). Nothing was run or written by the call that throws it. `holder` names who has it.
 */
export class RunLockedError extends SwarmError {
  readonly runId: string;
  readonly holder: LeaseHolder | undefined;

  constructor(
    runId: string,
    holder: LeaseHolder | undefined,
    message?: string,
    options?: { cause?: unknown },
  ) {
    super(
      'RUN_LOCKED',
      message ??
        `Run ${JSON.stringify(runId)} is being executed by ${holder ? describeHolder(holder) : 'another process'}; nothing was run. Wait for it to end (or for its lease to go stale) and resume it again.`,
      options,
    );
    this.name = 'RunLockedError';
    this.runId = runId;
    this.holder = holder;
  }
}

/** A holder as a person reads it: its id (`pid 123@host`, a worker and job) and when it took the lease. */
export function describeHolder(holder: LeaseHolder): string {
  return `${holder.id}${holder.at ? ` (lease taken or renewed ${holder.at})` : ''}`;
}

/**
 * A journal append did not reach the store whole (a short write, a full disk, a write error): the
 * run stops here, before it uses the answer that could not be kept. `runId` names the run.
 */
export class JournalWriteError extends SwarmError {
  readonly runId: string;

  constructor(runId: string, message: string, options?: { cause?: unknown }) {
    super('JOURNAL_WRITE', message, options);
    this.name = 'JournalWriteError';
    this.runId = runId;
  }
}

/**
 * A decision was given for a call that someone else already decided (two reviewers at once): the
 * first decision stands and nothing was written. `decided` is that first decision.
 */
export class ApprovalConflictError extends SwarmError {
  readonly approvalId: string;
  readonly decided: { approved: boolean; by?: string; at?: string; message?: string };

  constructor(
    approvalId: string,
    decided: { approved: boolean; by?: string; at?: string; message?: string },
    message?: string,
  ) {
    super(
      'APPROVAL_CONFLICT',
      message ??
        `Call ${JSON.stringify(approvalId)} was already ${decided.approved ? 'approved' : 'rejected'}${decided.by ? ` by ${decided.by}` : ''}${decided.at ? ` at ${decided.at}` : ''}; the first decision stands and yours was not written.`,
    );
    this.name = 'ApprovalConflictError';
    this.approvalId = approvalId;
    this.decided = decided;
  }
}
