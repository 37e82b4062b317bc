import { ConfigError } from './errors.js';

// What a runtime offers to load a builtin module without an import statement: Node (22.3+), Deno,
// Bun and Cloudflare's nodejs_compat have `process.getBuiltinModule`; a browser has no `process`.
type BuiltinLoader = { getBuiltinModule?: (id: string) => unknown };

/**
 * A Node.js builtin module (`'node:fs/promises'`, `'node:crypto'`, ...) loaded when a feature that
 * needs it is used, not when its package is imported: no import statement names it, so a bundler
 * for a browser or an edge runtime never follows it. Where the runtime has no such module, throws a
 * `ConfigError`: "`feature` needs Node.js (`id`), which this runtime does not have; `instead`".
 *
 * ```ts
 * const fs = nodeBuiltin<FsPromises>('node:fs/promises', 'MyStore', 'use MemoryStore in a browser.');
 * ```
 */
export function nodeBuiltin<T>(id: string, feature: string, instead: string): T {
  const loaded = optionalNodeBuiltin<T>(id);
  if (loaded === undefined) {
    throw new ConfigError(`${feature} needs Node.js (${id}), which this runtime does not have; ${instead}`);
  }
  return loaded;
}

/** The builtin module `id`, or undefined where the runtime has none: for code with a fallback. */
export function optionalNodeBuiltin<T>(id: string): T | undefined {
  const loader = (globalThis as { process?: BuiltinLoader }).process;
  if (typeof loader?.getBuiltinModule !== 'function') return undefined;
  return (loader.getBuiltinModule(id) ?? undefined) as T | undefined;
}
