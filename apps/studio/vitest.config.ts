import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// The studio is tested over real HTTP and in chromium, so its tests get more time than unit tests.
export default mergeConfig(shared, defineConfig({ test: { testTimeout: 60_000, hookTimeout: 60_000 } }));
