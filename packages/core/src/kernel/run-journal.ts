import type { ModelRequest, ModelResponse } from '../contracts/model.js';
import type { ApprovalDecision, Approvals, PendingApproval } from './approval.js';
import { canonicalJson, cassetteRequest, cassetteResponse } from './canonical-request.js';
import { ConfigError, SwarmError } from './errors.js';
import { murmur128 } from './hash.js';
import {
  type ApprovalEntry,
  checkedEntry,
  type DecisionEntry,
  isSelfChecking,
  type Journal,
  type JournalEntry,
  type JournalLease,
  type ModelCallEntry,
  normalisedEntry,
  parseJournalEntry,
  type ToolCallEntry,
  type ToolStartEntry,
} from './journal.js';

/** A model call's place in the journal, and its answer when the journal holds one. */
export interface ModelSlot {
  key: string;
  response: ModelResponse | undefined;
}

/** What a finished run left of its journal: decisions it never used, entries it never asked for. */
export interface JournalLeftovers {
  unusedApprovals: string[];
  unmatched: number;
  /** The first entry (in journal order) the run did not ask for: where it left the journal. */
  firstUnmatched: ModelCallEntry | ToolCallEntry | undefined;
}

/**
 * One run's side of a journal (internal): the entries read at the start, indexed by key; the
 * occurrence counts that key new calls; the approvals given to resume it. Shared by every context
 * of the run, nested runs included.
 */
export class RunJournal {
  readonly store: Journal;
  readonly runId: string;
  readonly #approvals: Approvals;
  readonly #usedApprovals = new Set<string>();
  #opening: Promise<void> | undefined;
  /** True once the entries are read and the approvals checked: calls may be looked up. */
  isOpen = false;
  // Entries not yet asked for, by key; an entry is taken out when a call replays it.
  readonly #models = new Map<string, ModelCallEntry>();
  readonly #tools = new Map<string, ToolCallEntry>();
  // Calls that waited for a person and have no answer yet, by approval id.
  readonly #pending = new Map<string, ApprovalEntry>();
  readonly #order: (ModelCallEntry | ToolCallEntry)[] = [];
  readonly #occurrences = new Map<string, number>();
  // The key of every response this run handed out (live or replayed), for the tools it asks for.
  readonly #keys = new WeakMap<ModelResponse, string>();
  readonly #replayed = new WeakSet<ModelResponse>();
  // Decisions the journal holds (made on an earlier resume), by approval id.
  readonly #decided = new Map<string, DecisionEntry>();
  // Tool calls journaled as started, by key (those with no result were cut off by a crash).
  readonly #started = new Map<string, ToolStartEntry>();
  // Approval ids whose call asked again with other arguments (a new pending entry took their place).
  readonly #superseded = new Set<string>();
  #lease: JournalLease | undefined;
  #released = false;
  #finished = false;

  constructor(store: Journal, runId: string, approvals: Approvals | undefined) {
    this.store = store;
    this.runId = runId;
    this.#approvals = approvals ?? {};
  }

  /** Reads the run's entries and checks the approvals against the calls it waits for (once). */
  open(): Promise<void> {
    this.#opening ??= this.#load();
    return this.#opening;
  }

  async #load(): Promise<void> {
    // The lease first, then the entries: what the previous holder wrote is all there once it is ours.
    if (this.store.acquireLease) {
      const failedRelease = takeReleaseFailure(this.store);
      try {
        this.#lease = await this.store.acquireLease(this.runId);
      } catch (error) {
        // Our own earlier run of this store could not give its lease back: say why it is still held.
        if (failedRelease !== undefined && SwarmError.isInstance(error) && error.code === 'RUN_LOCKED') {
          throw new ConfigError(
            `run ${this.runId}: the journal store could not release an earlier run's lease (${String(failedRelease)}), and it is still held.`,
            { cause: failedRelease },
          );
        }
        throw error;
      }
    }
    try {
      await this.#read();
    } catch (error) {
      this.release();
      throw error;
    }
    this.isOpen = true;
  }

  async #read(): Promise<void> {
    const entries = await this.store.read(this.runId);
    entries.forEach((raw, i) => {
      const entry = parseJournalEntry(raw, `entry ${i + 1} of the journal of run ${this.runId}`);
      this.#index(entry);
    });
    for (const [id, waiting] of this.#pending) if (this.#tools.has(waiting.key)) this.#pending.delete(id);
    const waiting = [...this.#pending.keys()];
    for (const id of Object.keys(this.#approvals)) {
      const earlier = this.#decided.get(id);
      const given = this.#approvals[id]!;
      // The same decision delivered again (a takeover of a resumed attempt) is no conflict.
      if (earlier !== undefined && earlier.approved === given.approved && earlier.message === given.message)
        continue;
      if (earlier !== undefined) {
        throw new ConfigError(
          `approvals: ${JSON.stringify(id)} was already ${earlier.approved ? 'approved' : 'rejected'}${earlier.by ? ` by ${earlier.by}` : ''} at ${earlier.at}; a decision is not given twice. Nothing was run.`,
        );
      }
      if (!this.#pending.has(id)) {
        throw new ConfigError(
          `approvals: ${JSON.stringify(id)} is not a call run ${this.runId} waits for (${
            waiting.length > 0
              ? `it waits for ${waiting.join(', ')}`
              : 'its journal holds no call waiting for approval'
          }). Nothing was run.`,
        );
      }
    }
  }

  #index(entry: JournalEntry): void {
    if (entry.type === 'approval') {
      this.#pending.set(entry.approval.id, entry);
      return;
    }
    if (entry.type === 'started') {
      if (!this.#started.has(entry.key)) this.#started.set(entry.key, entry);
      return;
    }
    if (entry.type === 'decision') {
      // The first decision on an id stands.
      if (!this.#decided.has(entry.id)) this.#decided.set(entry.id, entry);
      return;
    }
    const map: Map<string, ModelCallEntry | ToolCallEntry> =
      entry.type === 'model' ? this.#models : this.#tools;
    // A key written twice (a run resumed twice from the same point) answers with its first entry.
    if (map.has(entry.key)) return;
    map.set(entry.key, entry);
    this.#order.push(entry);
  }

  /**
   * The place of a model call in the run: a hash of its run path, model and canonical request, and
   * how many calls of that same hash came before it. Taken synchronously at the call's start, so
   * concurrent branches number their calls in the order the code starts them.
   */
  modelSlot(pathKey: string, modelId: string, request: ModelRequest): ModelSlot {
    const hash = murmur128(`${pathKey}\u0000${modelId}\u0000${canonicalJson(cassetteRequest(request))}`);
    const occurrence = this.#occurrences.get(hash) ?? 0;
    this.#occurrences.set(hash, occurrence + 1);
    const key = `${hash}#${occurrence}`;
    const entry = this.#models.get(key);
    if (entry === undefined) return { key, response: undefined };
    this.#models.delete(key);
    const response = entry.response;
    this.#keys.set(response, key);
    this.#replayed.add(response);
    return { key, response };
  }

  /** Appends a live call's answer; resolves (with the response the run goes on with) once it is kept. */
  async recordModel(
    key: string,
    path: readonly string[],
    modelId: string,
    request: ModelRequest,
    response: ModelResponse,
  ): Promise<ModelResponse> {
    const { agent, purpose } = request.metadata ?? {};
    // Checked as it will be read back: an off-contract finish reason is `other` here and for the
    // run alike, anything else off the contract fails this call, not the resume.
    const entry = this.#checked(
      {
        type: 'model',
        key,
        path: [...path],
        ...(agent !== undefined && { agent }),
        ...(purpose !== undefined && { purpose }),
        model: modelId,
        response: cassetteResponse(response),
      },
      `the answer of model ${modelId} at ${path.join(' > ')} in run ${this.runId}`,
    ) as ModelCallEntry;
    await this.#append(entry);
    // A copy: a model that hands out one response object twice still gives each call its own key.
    const answer =
      entry.response.finishReason === response.finishReason
        ? { ...response }
        : { ...response, finishReason: entry.response.finishReason };
    this.#keys.set(answer, key);
    return answer;
  }

  /** Whether `response` came from the journal rather than the model. */
  wasReplayed(response: ModelResponse): boolean {
    return this.#replayed.has(response);
  }

  /** The key of the execution of tool call `index` of `response`, and its answer when journaled. */
  toolSlot(
    response: ModelResponse,
    index: number,
  ): { key: string; entry: ToolCallEntry | undefined } | undefined {
    const responseKey = this.#keys.get(response);
    if (responseKey === undefined) return undefined;
    const key = `${responseKey}/${index}`;
    const entry = this.#tools.get(key);
    if (entry !== undefined) {
      this.#tools.delete(key);
      return { key, entry };
    }
    const started = this.#started.get(key);
    if (started !== undefined) {
      // It began and never returned (the process died while it ran): never run it again.
      return {
        key,
        entry: {
          type: 'tool',
          key,
          path: started.path,
          agent: started.agent,
          tool: started.tool,
          toolCallId: started.toolCallId,
          result: `Error: the process running tool "${started.tool}" stopped while it ran (started ${started.at}); it was not run again, and whether it took effect is unknown.`,
          isError: true,
        },
      };
    }
    return { key, entry: undefined };
  }

  /** Journals that a tool call is about to execute (see `ToolStartEntry`). */
  recordStart(
    key: string,
    agent: string,
    tool: string,
    toolCallId: string,
    path: readonly string[],
  ): Promise<void> {
    return this.#append({
      type: 'started',
      key,
      path: [...path],
      agent,
      tool,
      toolCallId,
      at: new Date().toISOString(),
    });
  }

  /** Appends a tool execution's answer. */
  recordTool(entry: ToolCallEntry): Promise<void> {
    return this.#append(this.#checked(entry, `the result of tool ${entry.tool} in run ${this.runId}`));
  }

  // The entry as it will be read back: checked here unless the store checks it in its append.
  #checked(entry: JournalEntry, where: string): JournalEntry {
    return isSelfChecking(this.store) ? normalisedEntry(entry) : checkedEntry(entry, where);
  }

  // Every append goes with the run's lease: refused once another process has taken the run.
  #append(entry: JournalEntry): Promise<void> {
    return this.#lease
      ? this.store.append(this.runId, entry, this.#lease)
      : this.store.append(this.runId, entry);
  }

  /**
   * The id of a call that needs approval: the same on every resume of the run for the same call,
   * and another for the same place asking other arguments (or another tool).
   */
  approvalId(toolKey: string, tool?: string, args?: Record<string, unknown>): string {
    return approvalId(this.runId, toolKey, tool, args);
  }

  /**
   * The decision on a pending call, if any: one the journal holds (given on an earlier resume) or
   * one given to this resume, which is journaled (who, when) before the call goes on.
   */
  async decide(id: string, key: string): Promise<ApprovalDecision | undefined> {
    this.#usedApprovals.add(id);
    const earlier = this.#decided.get(id);
    if (earlier !== undefined) return decisionOf(earlier);
    const given = this.#approvals[id];
    if (given === undefined) return undefined;
    const entry: DecisionEntry = {
      type: 'decision',
      key,
      id,
      approved: given.approved,
      ...(given.message !== undefined && { message: given.message }),
      ...(given.by !== undefined && { by: given.by }),
      at: given.at ?? new Date().toISOString(),
    };
    this.#decided.set(id, entry);
    await this.#append(entry);
    return decisionOf(entry);
  }

  /** The decision given for a pending call, if any (and notes that the run reached it). */
  decision(id: string): ApprovalDecision | undefined {
    this.#usedApprovals.add(id);
    const earlier = this.#decided.get(id);
    return earlier ? decisionOf(earlier) : this.#approvals[id];
  }

  /** Whether the call at `key` waited for a person when the run paused (it waits still, undecided). */
  waited(key: string): boolean {
    for (const entry of this.#pending.values()) if (entry.key === key) return true;
    return false;
  }

  /** Keeps a call that waits for a person, so that a resume can be checked against it. */
  async recordPending(key: string, approval: PendingApproval): Promise<void> {
    if (this.#pending.has(approval.id)) return;
    // The same call asking other arguments than were shown: the old decision does not cover it.
    for (const [id, entry] of this.#pending) if (entry.key === key) this.#superseded.add(id);
    const entry: ApprovalEntry = { type: 'approval', key, approval };
    this.#pending.set(approval.id, entry);
    await this.#append(entry);
  }

  /** Gives the run's lease back (once): the run ended, or failed before it began. */
  release(): void {
    if (this.#released || this.#lease === undefined) return;
    this.#released = true;
    const lease = this.#lease;
    let released: Promise<void> | void;
    try {
      released = this.store.releaseLease?.(lease);
    } catch (error) {
      releaseFailures.set(this.store, error);
      return;
    }
    if (released) {
      released.catch((error: unknown) => {
        releaseFailures.set(this.store, error);
      });
    }
  }

  /** What the run left unused, once (later calls report nothing); gives the lease back. */
  finish(): JournalLeftovers | undefined {
    if (this.#finished) return undefined;
    this.#finished = true;
    this.release();
    const unusedApprovals = Object.keys(this.#approvals).filter(
      (id) => !this.#usedApprovals.has(id) && !this.#superseded.has(id),
    );
    const left = this.#order.filter((e) =>
      e.type === 'model' ? this.#models.has(e.key) : this.#tools.has(e.key),
    );
    return { unusedApprovals, unmatched: left.length, firstUnmatched: left[0] };
  }
}

/**
 * An approval id: 16 hex digits of a hash of the run id, the call's key, and (when given) the tool
 * and the hash of its arguments, so that a decision approves exactly the call a person was shown.
 */
export function approvalId(
  runId: string,
  callKey: string,
  tool?: string,
  args?: Record<string, unknown>,
): string {
  const what = tool === undefined ? '' : `\u0000${argumentsHash(tool, args ?? {})}`;
  return murmur128(`approval\u0000${runId}\u0000${callKey}${what}`).slice(0, 16);
}

/** A hash of a tool's name and a call's arguments (canonical JSON): what an approval approves. */
export function argumentsHash(tool: string, args: Record<string, unknown>): string {
  return murmur128(`${tool}\u0000${canonicalJson(args)}`);
}

// A release that failed: the next run of the store in this process reports it (the lease then
// stays until it goes stale).
const releaseFailures = new WeakMap<Journal, unknown>();

/** The failure of the last lease release of `store` in this process, if one failed (and forgets it). */
export function takeReleaseFailure(store: Journal): unknown {
  const failure = releaseFailures.get(store);
  releaseFailures.delete(store);
  return failure;
}

function decisionOf(entry: DecisionEntry): ApprovalDecision {
  return {
    approved: entry.approved,
    ...(entry.message !== undefined && { message: entry.message }),
    ...(entry.by !== undefined && { by: entry.by }),
    at: entry.at,
  };
}
