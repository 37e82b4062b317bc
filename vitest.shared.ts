import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The one vitest configuration every package uses: tests beside the code, no network but loopback,
 * and workspace packages read from their sources so a test never runs against a stale build.
 */
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@swarm\/core\/testing$/, replacement: here('./packages/core/src/testing/index.ts') },
      { find: /^@swarm\/core\/testing\/vitest$/, replacement: here('./packages/core/src/testing/vitest.ts') },
      { find: /^@swarm\/([a-z-]+)$/, replacement: here('./packages/$1/src/index.ts') },
    ],
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    setupFiles: [here('./vitest.setup.ts')],
    // Generous: CI shares 2 cores with a dozen processes; a test that hangs still fails, later.
    testTimeout: 30_000,
  },
});
