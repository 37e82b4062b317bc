import type { ModelResponse } from '../contracts/model.js';
import { type CanonicalRequest, canonicalJson } from '../kernel/canonical-request.js';

export {
  type CanonicalPart,
  canonicalJson,
  cassetteRequest,
  cassetteResponse,
  contentHash,
} from '../kernel/canonical-request.js';

/** A request as a cassette keeps it: what was asked, never the signal or anything a provider adds. */
export type CassetteRequest = CanonicalRequest;

/** A failed call as a cassette keeps it. */
export interface CassetteError {
  message: string;
  status?: number;
  retryable?: boolean;
}

/** One line of a JSONL cassette: a request and the response (or the failure) it got. */
export type CassetteEntry = { model: string; request: CassetteRequest } & (
  | { response: ModelResponse }
  | { error: CassetteError }
);

/** Where two JSON values first differ (keys in sorted order, arrays by index), and the two values there. */
export interface Difference {
  /** For example `messages[0].content`; empty for the values themselves. */
  path: string;
  recorded: unknown;
  actual: unknown;
}

/** The first difference between a recorded and an actual JSON value, or undefined when they are equal. */
export function firstDifference(recorded: unknown, actual: unknown, path = ''): Difference | undefined {
  if (Array.isArray(recorded) && Array.isArray(actual)) {
    for (let i = 0; i < Math.max(recorded.length, actual.length); i++) {
      const found = firstDifference(recorded[i], actual[i], `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (isObject(recorded) && isObject(actual)) {
    const keys = [...new Set([...Object.keys(recorded), ...Object.keys(actual)])].sort();
    for (const key of keys) {
      const found = firstDifference(recorded[key], actual[key], path ? `${path}.${key}` : key);
      if (found) return found;
    }
    return undefined;
  }
  return canonicalJson(recorded) === canonicalJson(actual) ? undefined : { path, recorded, actual };
}

/** How many leaf values two JSON values share at the same paths: picks the recorded request nearest a live one. */
export function sharedLeaves(a: unknown, b: unknown): number {
  if (Array.isArray(a) && Array.isArray(b)) {
    let shared = 0;
    for (let i = 0; i < Math.min(a.length, b.length); i++) shared += sharedLeaves(a[i], b[i]);
    return shared;
  }
  if (isObject(a) && isObject(b)) {
    let shared = 0;
    for (const key of Object.keys(a)) if (key in b) shared += sharedLeaves(a[key], b[key]);
    return shared;
  }
  return canonicalJson(a) === canonicalJson(b) ? 1 : 0;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** What a runtime without files (a browser) is told to use instead of a cassette. */
export const cassettesInNode =
  'cassettes are files: record and replay in Node.js, and script a browser test with ScriptedModel.';
