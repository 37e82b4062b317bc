// What a browser bundle of an entry loads, measured from an esbuild metafile: the entry's chunk,
// the chunks it imports statically, and the lazy chunks that a named package's first use loads.
// Shared by the bundle-size bench and the test that an openai-only bundle holds no Anthropic code.

/** The parts of an esbuild metafile's `outputs` this reads. */
export interface MetafileOutputs {
  [path: string]: {
    bytes: number;
    entryPoint?: string;
    inputs: Record<string, unknown>;
    imports: { path: string; kind: string; external?: boolean }[];
  };
}

/** The chunks reached from `start` through static imports (start included). */
export function staticClosure(outputs: MetafileOutputs, start: string): Set<string> {
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path) || outputs[path] === undefined) return;
    seen.add(path);
    for (const imported of outputs[path].imports) {
      if (!imported.external && imported.kind === 'import-statement') visit(imported.path);
    }
  };
  visit(start);
  return seen;
}

/**
 * The chunks an entry loads once the packages named in `using` are first used: its static
 * closure, plus the static closure of every chunk it imports dynamically whose own inputs
 * include one of those packages (the SDK a provider loads at its first call).
 */
export function loadedChunks(outputs: MetafileOutputs, entry: string, using: readonly string[]): Set<string> {
  const loaded = staticClosure(outputs, entry);
  const lazy = Object.entries(outputs).filter(([, output]) =>
    Object.keys(output.inputs).some((input) => using.some((name) => holds(input, name))),
  );
  for (const [path] of lazy) {
    if (loaded.has(path)) continue;
    const reachedDynamically = [...loaded].some((chunk) =>
      outputs[chunk]!.imports.some((i) => i.kind === 'dynamic-import' && i.path === path),
    );
    if (reachedDynamically) for (const chunk of staticClosure(outputs, path)) loaded.add(chunk);
  }
  return loaded;
}

/** Whether a metafile input path is a file of the npm package `name`. */
export function holds(input: string, name: string): boolean {
  return input.includes(`node_modules/${name}/`);
}

/** The packages (by name, as found in `node_modules`) whose files are in the given chunks. */
export function packagesIn(
  outputs: MetafileOutputs,
  chunks: Iterable<string>,
  names: readonly string[],
): string[] {
  const found = new Set<string>();
  for (const chunk of chunks) {
    for (const input of Object.keys(outputs[chunk]!.inputs)) {
      for (const name of names) if (holds(input, name)) found.add(name);
    }
  }
  return [...found].sort();
}
