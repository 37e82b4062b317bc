import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// The command is tested as a real process, so its tests get more time than unit tests.
export default mergeConfig(shared, defineConfig({ test: { testTimeout: 60_000, hookTimeout: 60_000 } }));
