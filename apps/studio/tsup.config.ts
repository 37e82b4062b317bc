import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'demo-main': 'src/demo-main.ts' },
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node22',
});
