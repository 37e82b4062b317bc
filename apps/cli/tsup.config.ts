import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { swarm: 'src/swarm.ts' },
  format: ['esm'],
  clean: true,
  sourcemap: true,
  target: 'node22',
  banner: { js: '#!/usr/bin/env node' },
});
