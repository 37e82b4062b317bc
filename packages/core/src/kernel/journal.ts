import { z } from 'zod';
import type { PendingApproval } from '../contracts/approval.js';
import type { ModelResponse } from '../contracts/model.js';
import { ConfigError } from './errors.js';

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

/** One line of a run's journal. */
export type JournalEntry = ModelCallEntry | ToolCallEntry | ApprovalEntry;

/**
 * The calls a paused run still waits for, read from its journal: asked for approval and not
 * answered since, one per id in the order they were asked. What a resume must decide on.
 */
export function waitingApprovals(entries: readonly JournalEntry[]): PendingApproval[] {
  const answered = new Set(entries.flatMap((entry) => (entry.type === 'tool' ? [entry.key] : [])));
  const waiting = new Map<string, PendingApproval>();
  for (const entry of entries) {
    if (entry.type === 'approval' && !answered.has(entry.key)) waiting.set(entry.approval.id, entry.approval);
  }
  return [...waiting.values()];
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
   * by the server): the run uses the answer only then.
   */
  append(runId: string, entry: JournalEntry): Promise<void>;
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

/** Checks `RunOptions.journal`: something with `read` and `append`. */
export function validateJournal(journal: unknown): Journal {
  const store = journal as Journal | null;
  if (
    typeof store !== 'object' ||
    store === null ||
    typeof store.read !== 'function' ||
    typeof store.append !== 'function'
  ) {
    throw new ConfigError(
      'journal must be a Journal (memoryJournal(), fileJournal(dir), or an object with read and append).',
    );
  }
  return store;
}

/** A journal held in this process: resumes a paused run in the same process, and tests. */
export function memoryJournal(): Journal {
  // Kept as JSON text, so an entry is copied both ways and fails here as it would in a file.
  const runs = new Map<string, string[]>();
  return {
    read: async (runId) =>
      (runs.get(validateRunId(runId)) ?? []).map((line) => JSON.parse(line) as JournalEntry),
    append: async (runId, entry) => {
      const lines = runs.get(validateRunId(runId)) ?? [];
      lines.push(JSON.stringify(entry));
      runs.set(runId, lines);
    },
  };
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
    }),
  }),
]);

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
