// Bundles an entry as a browser app would (esbuild: ESM, platform browser, minified, code
// splitting so that lazy imports get chunks of their own) and measures what it loads: the entry's
// chunk, its static imports, and the chunks that the first use of the named packages loads (the
// SDK a provider imports at its first call). Bytes are minified; gzip is per chunk, as served.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { loadedChunks, type MetafileOutputs, packagesIn } from './bundle-closure.js';

/** What a bundled entry loads. */
export interface BundleMeasure {
  /** Minified bytes of the chunks loaded. */
  minified: number;
  /** The same chunks gzipped one by one. */
  gzipped: number;
  /** Which of the watched SDK packages have code in the loaded chunks. */
  sdks: string[];
  /** Which of the watched SDK packages are in the bundle at all (loaded or in a lazy chunk). */
  bundledSdks: string[];
}

/** The SDK packages whose presence is reported. */
export const watchedSdks = ['openai', '@anthropic-ai/sdk', '@ai-sdk/openai-compatible', 'ai'] as const;

/**
 * Bundles `code` (a TypeScript module; import other modules by absolute path, or by name from
 * `nodePaths`) and measures what it loads once the packages in `using` are first used.
 */
export async function measureBundle(
  code: string,
  options: { using: readonly string[]; nodePaths?: string[] },
): Promise<BundleMeasure> {
  const dir = await mkdtemp(join(tmpdir(), 'swarm-bundle-'));
  try {
    const entry = join(dir, 'entry.ts');
    await writeFile(entry, code);
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2023',
      minify: true,
      write: false,
      outdir: join(dir, 'out'),
      metafile: true,
      logLevel: 'silent',
      nodePaths: options.nodePaths ?? [],
    });
    const outputs = result.metafile.outputs as MetafileOutputs;
    const entryOutput = Object.keys(outputs).find((path) => outputs[path]!.entryPoint !== undefined)!;
    const loaded = loadedChunks(outputs, entryOutput, options.using);
    let minified = 0;
    let gzipped = 0;
    for (const file of result.outputFiles) {
      const path = Object.keys(outputs).find((p) => file.path.endsWith(p.replace(/^.*?out\//, 'out/')));
      if (path === undefined || !loaded.has(path) || !path.endsWith('.js')) continue;
      minified += file.contents.byteLength;
      gzipped += gzipSync(file.contents, { level: 9 }).byteLength;
    }
    return {
      minified,
      gzipped,
      sdks: packagesIn(outputs, loaded, watchedSdks),
      bundledSdks: packagesIn(outputs, Object.keys(outputs), watchedSdks),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
