import { describe, expect, it } from 'vitest';
import {
  browserEntries,
  checkBrowserEntries,
  entryName,
  nodeOnlyPackages,
} from '../../../scripts/check-browser-entries.mjs';

// The same check as `node scripts/check-browser-entries.mjs`, so `pnpm test` fails when a node
// import reaches a browser entry. Turbo builds every package below before this test runs.
describe('browser entry points', () => {
  it('cover @swarm/core, @swarm/core/testing and every package but the node-only @swarm/queue and @swarm/mcp', () => {
    const names = browserEntries.map(entryName);
    expect(names.slice(0, 2)).toEqual(['@swarm/core', '@swarm/core/testing']);
    expect(names).toEqual(
      expect.arrayContaining([
        '@swarm/collective',
        '@swarm/embeddings',
        '@swarm/forest',
        '@swarm/handoff',
        '@swarm/hierarchy',
        '@swarm/otel',
        '@swarm/router',
        '@swarm/tot',
        '@swarm/workflow',
      ]),
    );
    expect(nodeOnlyPackages).toEqual(['mcp', 'queue']);
    expect(names).not.toContain('@swarm/queue');
    expect(names).not.toContain('@swarm/mcp');
  });

  it('reach no Node.js builtin when their built dist is bundled for the browser', async () => {
    expect(await checkBrowserEntries()).toEqual([]);
  }, 120_000);
});
