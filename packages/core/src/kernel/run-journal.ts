import type { ModelRequest, ModelResponse } from '../contracts/model.js';
import type { ApprovalDecision, Approvals, PendingApproval } from './approval.js';
import { canonicalJson, cassetteRequest, cassetteResponse } from './canonical-request.js';
import { ConfigError } from './errors.js';
import { murmur128 } from './hash.js';
import {
  type ApprovalEntry,
  type Journal,
  type JournalEntry,
  type ModelCallEntry,
  parseJournalEntry,
  type ToolCallEntry,
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
    const entries = await this.store.read(this.runId);
    entries.forEach((raw, i) => {
      const entry = parseJournalEntry(raw, `entry ${i + 1} of the journal of run ${this.runId}`);
      this.#index(entry);
    });
    for (const [id, waiting] of this.#pending) if (this.#tools.has(waiting.key)) this.#pending.delete(id);
    const waiting = [...this.#pending.keys()];
    for (const id of Object.keys(this.#approvals)) {
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
    this.isOpen = true;
  }

  #index(entry: JournalEntry): void {
    if (entry.type === 'approval') {
      this.#pending.set(entry.approval.id, entry);
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
    await this.store.append(this.runId, {
      type: 'model',
      key,
      path: [...path],
      ...(agent !== undefined && { agent }),
      ...(purpose !== undefined && { purpose }),
      model: modelId,
      response: cassetteResponse(response),
    });
    // A copy: a model that hands out one response object twice still gives each call its own key.
    const answer = { ...response };
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
    if (entry !== undefined) this.#tools.delete(key);
    return { key, entry };
  }

  /** Appends a tool execution's answer. */
  recordTool(entry: ToolCallEntry): Promise<void> {
    return this.store.append(this.runId, entry);
  }

  /** The id of a call that needs approval: the same on every resume of the run. */
  approvalId(toolKey: string): string {
    return approvalId(this.runId, toolKey);
  }

  /** The decision given for a pending call, if any (and notes that the run reached it). */
  decision(id: string): ApprovalDecision | undefined {
    this.#usedApprovals.add(id);
    return this.#approvals[id];
  }

  /** Keeps a call that waits for a person, so that a resume can be checked against it. */
  async recordPending(key: string, approval: PendingApproval): Promise<void> {
    if (this.#pending.has(approval.id)) return;
    const entry: ApprovalEntry = { type: 'approval', key, approval };
    this.#pending.set(approval.id, entry);
    await this.store.append(this.runId, entry);
  }

  /** What the run left unused, once (later calls report nothing). */
  finish(): JournalLeftovers | undefined {
    if (this.#finished) return undefined;
    this.#finished = true;
    const unusedApprovals = Object.keys(this.#approvals).filter((id) => !this.#usedApprovals.has(id));
    const left = this.#order.filter((e) =>
      e.type === 'model' ? this.#models.has(e.key) : this.#tools.has(e.key),
    );
    return { unusedApprovals, unmatched: left.length, firstUnmatched: left[0] };
  }
}

/** An approval id: 16 hex digits of a hash of the run id and the call's key. */
export function approvalId(runId: string, callKey: string): string {
  return murmur128(`approval\u0000${runId}\u0000${callKey}`).slice(0, 16);
}
