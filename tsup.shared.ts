import { defineConfig, type Options } from 'tsup';

/** The build every package shares: ESM with declarations for Node 22.12+, browsers and edge runtimes, from the given entry points. */
export function packageBuild(entry: Options['entry'] = ['src/index.ts']) {
  return defineConfig({ entry, format: ['esm'], dts: true, clean: true, sourcemap: true, target: 'es2023' });
}
