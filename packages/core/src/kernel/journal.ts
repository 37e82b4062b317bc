import { z } from 'zod';
import type { PendingApproval } from '../contracts/approval.js';
import type { ModelResponse } from '../contracts/model.js';
import { ConfigError, type LeaseHolder, RunLockedError } from './errors.js';

/**
 * A model call's answer as a journal keeps it. `key` is the call's place in the run (a hash of its
 * path, model and canonical request, then `#` and its occurrence); the rest is for people reading it.
 */
export interface ModelCallEntry {
  type: 'model';
  key: string;
  path: string[];
  agent?: string;
  purpose?: string;
  model: string;
  response: ModelResponse;
}

/** A tool execution's answer as a journal keeps it, keyed by the journaled response that asked for it. */
export interface ToolCallEntry {
  type: 'tool';
  /** The key of the model call whose response asked for it, `/`, and the call's index in that response. */
  key: string;
  path: string[];
  agent: string;
  tool: string;
  toolCallId: string;
  /** The text the model got back. */
  result: string;
  isError: boolean;
  /** True when the call ended the agent's turn (an `endsRun` tool that succeeded). */
  ended?: boolean;
  /** What that `endsRun` tool returned (JSON data), for the agent's `endedBy`. */
  value?: unknown;
  /** Set when a person decided the call: `true` approved (it then ran), `false` rejected. */
  approved?: boolean;
}

/** A call that waited for a person when the run paused; a later `tool` entry with its key answers it. */
export interface ApprovalEntry {
  type: 'approval';
  key: string;
  approval: PendingApproval;
}

/**
 * A person's decision on a call that waited (`approval.id`), journaled when the run first uses it
 * and before the call runs: a later resume reads it back instead of asking `needsApproval` again.
 */
export interface DecisionEntry {
  type: 'decision';
  /** The key of the tool call decided. */
  key: string;
  /** The approval id decided (it names the tool and the arguments' hash). */
  id: string;
  approved: boolean;
  message?: string;
  by?: string;
  /** When the decision was made (or first used, when the caller gave no time), ISO 8601. */
  at: string;
}

/**
 * A tool call about to execute, journaled before it runs: a resume that finds it without its
 * `tool` entry (the process died while the tool ran) answers the call as interrupted and never
 * runs it again, so a tool is executed at most once.
 */
export interface ToolStartEntry {
  type: 'started';
  /** The key of the tool call (as its `tool` entry will have). */
  key: string;
  path: string[];
  agent: string;
  tool: string;
  toolCallId: string;
  at: string;
}

/** One line of a run's journal. */
export type JournalEntry = ModelCallEntry | ToolCallEntry | ApprovalEntry | DecisionEntry | ToolStartEntry;

/**
 * A run's lease in its journal store: while a process holds it, no other can take the run, and
 * once another takes it (the lease went stale) an append given this lease is refused with
 * `RunLockedError` (fencing). `token` grows with every new holder of the run.
 */
export interface JournalLease {
  runId: string;
  token: number;
  holder: LeaseHolder;
}

/**
 * The calls a paused run still waits for, read from its journal: asked for approval and neither
 * decided nor answered since, one per id in the order they were asked. What a resume must decide on.
 */
export function waitingApprovals(entries: readonly JournalEntry[]): PendingApproval[] {
  const answered = new Set(entries.flatMap((entry) => (entry.type === 'tool' ? [entry.key] : [])));
  const decided = new Set(entries.flatMap((entry) => (entry.type === 'decision' ? [entry.id] : [])));
  const waiting = new Map<string, PendingApproval>();
  for (const entry of entries) {
    if (entry.type === 'approval' && !answered.has(entry.key) && !decided.has(entry.approval.id)) {
      waiting.set(entry.approval.id, entry.approval);
    }
  }
  return [...waiting.values()];
}

/** The decisions a run's journal holds, by approval id (the first on each id: it stands). */
export function journaledDecisions(entries: readonly JournalEntry[]): Map<string, DecisionEntry> {
  const decisions = new Map<string, DecisionEntry>();
  for (const entry of entries) {
    if (entry.type === 'decision' && !decisions.has(entry.id)) decisions.set(entry.id, entry);
  }
  return decisions;
}

/**
 * Where a run's journal lives: an append-only log of entries per run id. `memoryJournal()` and
 * `fileJournal(dir)` ship in core; a shared store (Redis, a database) implements these two methods.
 */
export interface Journal {
  /** Every entry of the run in the order appended; empty for a run id it has never seen. */
  read(runId: string): Promise<readonly JournalEntry[]>;
  /**
   * Appends one entry. Resolves only once the entry survives the process (flushed to disk, acknowledged
   * by the server): the run uses the answer only then; a write that did not land whole rejects
   * (`JournalWriteError`). Given `lease`, refuses with `RunLockedError` when the run has a newer
   * holder than it (fencing), and writes nothing.
   */
  append(runId: string, entry: JournalEntry, lease?: JournalLease): Promise<void>;
  /**
   * Takes the run's lease for this process, or rejects with `RunLockedError` naming the holder when
   * a live one has it. Optional: a store without it runs unfenced (one process per run is then up
   * to you). A run takes it before reading its journal and gives it back when it ends.
   */
  acquireLease?(runId: string): Promise<JournalLease>;
  /** Gives the lease back (a lease that is no longer the run's newest is left alone). */
  releaseLease?(lease: JournalLease): Promise<void> | void;
}

const runIdPattern = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

/**
 * Checks a run id: 1 to 128 letters, digits, `.`, `_` or `-`, not starting with `.`, so that it
 * names one file or key and never a path.
 */
export function validateRunId(runId: unknown): string {
  if (typeof runId !== 'string' || !runIdPattern.test(runId)) {
    throw new ConfigError(
      `runId must be 1 to 128 letters, digits, ".", "_" or "-", not starting with "." (got ${JSON.stringify(runId)}).`,
    );
  }
  return runId;
}

/** Checks `RunOptions.journal`: something with `read` and `append` (and both or neither lease methods). */
export function validateJournal(journal: unknown): Journal {
  const store = journal as Journal | null;
  if (
    typeof store !== 'object' ||
    store === null ||
    typeof store.read !== 'function' ||
    typeof store.append !== 'function' ||
    (store.acquireLease === undefined) !== (store.releaseLease === undefined)
  ) {
    throw new ConfigError(
      'journal must be a Journal (memoryJournal(), fileJournal(dir), or an object with read and append, and acquireLease with releaseLease or neither).',
    );
  }
  return store;
}

/**
 * A journal held in this process: resumes a paused run in the same process, and tests. Fenced: a
 * run context that takes a run fences off the one that had it (its appends are `RunLockedError`).
 */
export function memoryJournal(): Journal {
  // Kept as JSON text, so an entry is copied both ways and fails here as it would in a file.
  const runs = new Map<string, string[]>();
  const leases = new Map<string, { token: number; holder: LeaseHolder; held: boolean }>();
  return checksItsEntries({
    read: async (runId) =>
      (runs.get(validateRunId(runId)) ?? []).map((line) => JSON.parse(line) as JournalEntry),
    append: async (runId, entry, lease) => {
      validateRunId(runId);
      const line = checkedLine(entry, `an append to run ${runId}`);
      const current = leases.get(runId);
      if (lease !== undefined && current !== undefined && current.token !== lease.token) {
        throw new RunLockedError(runId, current.holder, staleLeaseMessage(runId, lease, current.holder));
      }
      const lines = runs.get(runId) ?? [];
      lines.push(line);
      runs.set(runId, lines);
    },
    // One process holds every run of a memory journal: a new run context always takes the run, and
    // the one that had it is fenced off (its appends are refused).
    acquireLease: async (runId) => {
      validateRunId(runId);
      const token = (leases.get(runId)?.token ?? 0) + 1;
      const holder: LeaseHolder = {
        id: `run context ${token} of this process`,
        at: new Date().toISOString(),
      };
      leases.set(runId, { token, holder, held: true });
      return { runId, token, holder };
    },
    releaseLease: (lease) => {
      const current = leases.get(lease.runId);
      if (current?.token === lease.token) current.held = false;
    },
  });
}

/** The message of an append refused because `lease` is no longer the run's newest. */
export function staleLeaseMessage(
  runId: string,
  lease: JournalLease,
  holder: LeaseHolder | undefined,
): string {
  return `Run ${JSON.stringify(runId)} was taken over${holder ? ` by ${holder.id}` : ''} since this process took it (its lease ${lease.token} is stale); nothing was written. Another process executes the run now.`;
}

const usage = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cachedTokens: z.number(),
  reasoningTokens: z.number(),
  totalTokens: z.number(),
  estimated: z.boolean().optional(),
});

const toolCall = z.object({
  id: z.string(),
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  invalidArguments: z.string().optional(),
});

const reasoning = z.object({
  text: z.string(),
  blocks: z
    .array(
      z.discriminatedUnion('type', [
        z.object({ type: z.literal('thinking'), text: z.string(), signature: z.string().optional() }),
        z.object({ type: z.literal('redacted'), data: z.string() }),
      ]),
    )
    .optional(),
  field: z.enum(['reasoning_content', 'reasoning']).optional(),
});

const entrySchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('model'),
    key: z.string(),
    path: z.array(z.string()),
    agent: z.string().optional(),
    purpose: z.string().optional(),
    model: z.string(),
    response: z.object({
      text: z.string(),
      toolCalls: z.array(toolCall),
      usage,
      finishReason: z.enum(['stop', 'length', 'tool-calls', 'content-filter', 'error', 'other']),
      modelId: z.string(),
      // Kept, not stripped: a resumed run sends the reasoning back (Anthropic needs its signed
      // thinking block after a tool call), and the report shows the answering model.
      responseId: z.string().optional(),
      responseModel: z.string().optional(),
      reasoning: reasoning.optional(),
    }),
  }),
  z.object({
    type: z.literal('tool'),
    key: z.string(),
    path: z.array(z.string()),
    agent: z.string(),
    tool: z.string(),
    toolCallId: z.string(),
    result: z.string(),
    isError: z.boolean(),
    ended: z.boolean().optional(),
    value: z.unknown().optional(),
    approved: z.boolean().optional(),
  }),
  z.object({
    type: z.literal('approval'),
    key: z.string(),
    approval: z.object({
      id: z.string(),
      runId: z.string(),
      path: z.array(z.string()),
      agent: z.string(),
      tool: z.string(),
      arguments: z.record(z.string(), z.unknown()),
      argumentsHash: z.string().optional(),
    }),
  }),
  z.object({
    type: z.literal('started'),
    key: z.string(),
    path: z.array(z.string()),
    agent: z.string(),
    tool: z.string(),
    toolCallId: z.string(),
    at: z.string(),
  }),
  z.object({
    type: z.literal('decision'),
    key: z.string(),
    id: z.string(),
    approved: z.boolean(),
    message: z.string().optional(),
    by: z.string().optional(),
    at: z.string(),
  }),
]);

/** The finish reasons a journaled response may carry; any other is written as `other`. */
const finishReasons = new Set(['stop', 'length', 'tool-calls', 'content-filter', 'error', 'other']);

/**
 * Checks an entry before it is written, with the schema its reading uses: what a store keeps can
 * always be read back. A response's off-contract `finishReason` is written as `other` (what a run
 * does with it); anything else off the contract is a ConfigError at the append, before the run goes
 * on. Returns the entry to write. Stores of your own call it in `append`.
 */
export function checkedEntry(entry: JournalEntry, where: string): JournalEntry {
  // Through JSON, as a store keeps it: a value JSON cannot hold (a function, NaN) shows here.
  return parseJournalEntry(JSON.parse(JSON.stringify(normalisedEntry(entry))), where);
}

/**
 * The JSON line a store writes for `entry`: checked as `checkedEntry` does (the line is what was
 * checked, so what is read back passes the same schema). Stores of your own call it in `append`.
 */
export function checkedLine(entry: JournalEntry, where: string): string {
  const line = JSON.stringify(normalisedEntry(entry));
  parseJournalEntry(line === undefined ? undefined : JSON.parse(line), where);
  return line;
}

/** The entry with an off-contract finish reason written as `other` (the same entry when it has none). */
export function normalisedEntry(entry: JournalEntry): JournalEntry {
  if (
    entry?.type === 'model' &&
    entry.response !== null &&
    typeof entry.response === 'object' &&
    !finishReasons.has(entry.response.finishReason as string)
  ) {
    return { ...entry, response: { ...entry.response, finishReason: 'other' } };
  }
  return entry;
}

// The stores that check every entry themselves (`checkedEntry` in their append): a run does not
// check it twice.
const selfChecking = new WeakSet<Journal>();

/** Notes that `store` checks each entry in its `append` (internal: core's stores). */
export function checksItsEntries<J extends Journal>(store: J): J {
  selfChecking.add(store);
  return store;
}

/** Whether `store` checks each entry in its `append` itself. */
export function isSelfChecking(store: Journal): boolean {
  return selfChecking.has(store);
}

/**
 * Checks one entry read back from a store; a store calls it to say where a bad entry is (`where`,
 * e.g. `journal file runs/abc.jsonl line 4`). Throws a ConfigError naming the place and the problem.
 */
export function parseJournalEntry(value: unknown, where: string): JournalEntry {
  const parsed = entrySchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    throw new ConfigError(`${where} is not a journal entry${at}: ${issue?.message ?? 'invalid'}.`);
  }
  return parsed.data as JournalEntry;
}
