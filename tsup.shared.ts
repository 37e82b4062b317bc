import { defineConfig, type Options } from 'tsup';

/** The build every package shares: ESM with declarations for Node 20, from the given entry points. */
export function packageBuild(entry: Options['entry'] = ['src/index.ts']) {
  return defineConfig({ entry, format: ['esm'], dts: true, clean: true, sourcemap: true, target: 'node20' });
}
