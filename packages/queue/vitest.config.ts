import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// The queue's tests start worker processes, kill them and watch a shared rate limit across them:
// one file at a time, so their processes and their timing do not compete with each other.
export default mergeConfig(shared, defineConfig({ test: { fileParallelism: false } }));
