import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// The command is tested as a real process, so its tests get more time than unit tests.
const config = mergeConfig(shared, defineConfig({ test: { testTimeout: 60_000, hookTimeout: 60_000 } }));
// @swarm/studio is an app, not a package: its sources, ahead of the shared packages/* alias.
config.resolve.alias = [
  {
    find: /^@swarm\/studio$/,
    replacement: fileURLToPath(new URL('../studio/src/index.ts', import.meta.url)),
  },
  ...config.resolve.alias,
];
export default config;
