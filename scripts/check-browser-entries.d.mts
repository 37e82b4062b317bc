/** An entry point that must run in a browser: package directory under packages/ and subpath of its exports map. */
export type BrowserEntry = [dir: string, subpath: string];

/** Package directories that are node-only by design and not checked (`queue`). */
export const nodeOnlyPackages: string[];

/** Every entry checked: @swarm/core, @swarm/core/testing and the main entry of every other package but the node-only ones. */
export const browserEntries: BrowserEntry[];

/** The entry's import name, e.g. `@swarm/core/testing`. */
export function entryName(entry: BrowserEntry): string;

/** The Node.js builtins the entry's built dist reaches when bundled for the browser, each with its import chain. */
export function nodeImportsOf(
  entry: BrowserEntry,
): Promise<{ module: string; kind: string; chain: string[] }[]>;

/** One message per Node.js builtin reached from any of `entries`; [] when every one is clean. */
export function checkBrowserEntries(entries?: BrowserEntry[]): Promise<string[]>;
