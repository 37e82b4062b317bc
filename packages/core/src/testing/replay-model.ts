import type { Model, ModelRequest, ModelResponse, ModelStreamEvent } from '../contracts/model.js';
import { AbortError, ConfigError, ModelError } from '../kernel/errors.js';
import { nodeBuiltin } from '../kernel/node-builtin.js';
import {
  type CassetteEntry,
  type CassetteRequest,
  canonicalJson,
  cassetteRequest,
  cassettesInNode,
  type Difference,
  firstDifference,
  sharedLeaves,
} from './cassette.js';

/** Options of `replayModel`. */
export interface ReplayModelOptions {
  /** The JSONL cassette `recordModel` wrote. */
  file: string;
  /**
   * Replay only the calls recorded from the model with this id, and go by that id in traces: one
   * replay model per recorded model. Without it every call of the cassette is replayed.
   */
  model?: string;
  /** The model's id in traces (default: `model`, else `'replay'`). */
  id?: string;
}

/** A request the cassette has no answer for: where it first differs from the nearest recorded one. */
export class ReplayMismatchError extends Error {
  /** The difference from the nearest recorded request; undefined when it was recorded but is used up. */
  readonly difference: Difference | undefined;

  constructor(message: string, difference: Difference | undefined) {
    super(message);
    this.name = 'ReplayMismatchError';
    this.difference = difference;
  }
}

interface Recorded {
  entry: CassetteEntry;
  key: string;
  used: boolean;
}

/**
 * A Model that answers from a cassette, strictly: a request is matched by its content (canonical
 * JSON without the signal), not by its place in the run, so concurrent calls replay whatever order
 * they come in; identical requests take their recorded answers in recorded order. A request with
 * no recorded answer throws `ReplayMismatchError` showing its first difference from the nearest
 * recorded request. `stream` replays the recorded final response.
 */
export class ReplayModel implements Model {
  readonly id: string;
  /** Every request that had no recorded answer, in order. */
  readonly mismatches: ReplayMismatchError[] = [];
  readonly #recorded: Recorded[];
  readonly #byKey = new Map<string, Recorded[]>();
  #calls = 0;

  constructor(options: ReplayModelOptions) {
    if (typeof options?.file !== 'string' || options.file === '') {
      throw new ConfigError('replayModel: file must be the path of a cassette recordModel wrote.');
    }
    this.id = options.id ?? options.model ?? 'replay';
    this.#recorded = readCassette(options.file)
      .filter((entry) => options.model === undefined || entry.model === options.model)
      .map((entry) => ({ entry, key: canonicalJson(entry.request), used: false }));
    for (const recorded of this.#recorded) {
      const same = this.#byKey.get(recorded.key) ?? [];
      same.push(recorded);
      this.#byKey.set(recorded.key, same);
    }
  }

  /** Recorded calls not replayed yet. */
  get remaining(): number {
    return this.#recorded.filter((r) => !r.used).length;
  }

  /** Throws when a request had no recorded answer, or recorded calls were never replayed. */
  assertComplete(): void {
    const [first] = this.mismatches;
    if (first) throw first;
    if (this.remaining > 0) {
      throw new Error(`replayModel: ${this.remaining} recorded call(s) were never replayed.`);
    }
  }

  async generate(request: ModelRequest): Promise<ModelResponse> {
    const call = ++this.#calls;
    if (request.signal?.aborted) throw new AbortError(undefined, { cause: request.signal.reason });
    const asked = cassetteRequest(request);
    const recorded = this.#byKey.get(canonicalJson(asked))?.find((r) => !r.used);
    if (!recorded) {
      const mismatch = this.#mismatch(call, asked);
      this.mismatches.push(mismatch);
      throw mismatch;
    }
    recorded.used = true;
    const { entry } = recorded;
    if ('error' in entry) {
      const { message, status, retryable } = entry.error;
      throw new ModelError(message, {
        provider: this.id,
        ...(status !== undefined && { status }),
        ...(retryable !== undefined && { retryable }),
      });
    }
    return structuredClone(entry.response);
  }

  async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const response = await this.generate(request);
    if (response.reasoning?.text) yield { type: 'reasoning-delta', delta: response.reasoning.text };
    if (response.text !== '') yield { type: 'text-delta', delta: response.text };
    for (const toolCall of response.toolCalls) yield { type: 'tool-call', toolCall };
    yield { type: 'finish', response };
  }

  // Explains a miss: the request was recorded but every recording of it is used up, or it differs
  // from the nearest recorded request (unused ones first) at its first difference.
  #mismatch(call: number, asked: CassetteRequest): ReplayMismatchError {
    const who = `call #${call} (agent ${asked.metadata?.agent ?? '?'}, purpose ${asked.metadata?.purpose ?? '?'})`;
    const same = this.#byKey.get(canonicalJson(asked));
    if (same) {
      return new ReplayMismatchError(
        `replayModel: ${who} was recorded ${same.length} time(s), and every recording has been replayed already.`,
        undefined,
      );
    }
    const pool = this.#recorded.some((r) => !r.used) ? this.#recorded.filter((r) => !r.used) : this.#recorded;
    let nearest: Recorded | undefined;
    let best = -1;
    for (const recorded of pool) {
      const shared = sharedLeaves(recorded.entry.request, asked);
      if (shared > best) [nearest, best] = [recorded, shared];
    }
    if (!nearest) return new ReplayMismatchError(`replayModel: ${who}: the cassette is empty.`, undefined);
    const difference = firstDifference(nearest.entry.request, asked)!;
    const { recorded, actual } = difference;
    // Long texts are shown around the first character that differs.
    const texts = typeof recorded === 'string' && typeof actual === 'string';
    const at = texts ? firstDiffering(recorded, actual) : 0;
    const where = texts ? ` (character ${at + 1})` : '';
    return new ReplayMismatchError(
      `replayModel: no recorded request matches ${who}; first difference at ${difference.path || '(the request)'}${where}: recorded ${show(recorded, at)}, got ${show(actual, at)}.`,
      difference,
    );
  }
}

/** A Model answering from the cassette `recordModel` wrote: a run recorded once becomes an offline test. */
export function replayModel(options: ReplayModelOptions): ReplayModel {
  return new ReplayModel(options);
}

function readCassette(file: string): CassetteEntry[] {
  const { readFileSync } = nodeBuiltin<typeof import('node:fs')>('node:fs', 'replayModel()', cassettesInNode);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`replayModel: cannot read the cassette ${file}.`, { cause: error });
  }
  return text.split('\n').flatMap((line, i) => {
    if (line.trim() === '') return [];
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch (error) {
      throw new ConfigError(`replayModel: line ${i + 1} of ${file} is not JSON.`, { cause: error });
    }
    if (!isEntry(entry)) {
      throw new ConfigError(
        `replayModel: line ${i + 1} of ${file} is not a recorded call (request and response or error).`,
      );
    }
    return [entry];
  });
}

function isEntry(value: unknown): value is CassetteEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  const request = entry.request as Record<string, unknown> | undefined;
  return (
    typeof request === 'object' &&
    request !== null &&
    Array.isArray(request.messages) &&
    (typeof entry.response === 'object' || typeof entry.error === 'object')
  );
}

function firstDiffering(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

// A value as the mismatch message shows it: JSON, a long text cut to a window around `at`.
function show(value: unknown, at: number): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string' && value.length > 160) {
    const start = Math.max(0, at - 60);
    const end = Math.min(value.length, start + 160);
    return `${start > 0 ? '…' : ''}${JSON.stringify(value.slice(start, end))}${end < value.length ? '…' : ''}`;
  }
  return JSON.stringify(value);
}
