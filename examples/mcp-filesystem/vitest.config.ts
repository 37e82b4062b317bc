import { mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// The tests start real MCP server processes (Node programs that take a second or more to start on
// a busy machine), so they get more time than the shared default.
export default mergeConfig(shared, { test: { testTimeout: 60_000, hookTimeout: 60_000 } });
