import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// The example runs as real processes (one killed mid-run), so its tests get more time than unit tests.
export default mergeConfig(shared, defineConfig({ test: { testTimeout: 120_000 } }));
