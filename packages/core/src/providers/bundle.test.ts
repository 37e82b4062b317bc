// A browser bundle of an Agent on one provider loads that provider's SDK only: the other's is in a
// lazy chunk of its own, never loaded (esbuild metafile, code splitting, platform browser).
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { measureBundle } from '../../bench/bundle.js';

const index = JSON.stringify(fileURLToPath(new URL('../index.ts', import.meta.url)));
const agentOn = (model: string) =>
  `import { Agent } from ${index};\nexport const agent = new Agent({ name: 'a', instructions: 'Answer.', model: ${JSON.stringify(model)} });\n`;

describe('bundles of one provider', () => {
  it('an openai: Agent loads no @anthropic-ai/sdk code', async () => {
    const measure = await measureBundle(agentOn('openai:gpt-5.4'), { using: ['openai'] });
    expect(measure.sdks).toEqual(['openai']);
    // resolveModel can still make an Anthropic model: its SDK is bundled, in a chunk never loaded.
    expect(measure.bundledSdks).toContain('@anthropic-ai/sdk');
    expect(measure.minified).toBeGreaterThan(0);
  }, 60_000);

  it('an anthropic: Agent loads no openai code', async () => {
    const measure = await measureBundle(agentOn('anthropic:claude-opus-4-7'), {
      using: ['@anthropic-ai/sdk'],
    });
    expect(measure.sdks).toEqual(['@anthropic-ai/sdk']);
    expect(measure.bundledSdks).toContain('openai');
  }, 60_000);

  it('importing @swarm/core alone loads neither SDK', async () => {
    const measure = await measureBundle(`export * from ${index};\n`, { using: [] });
    expect(measure.sdks).toEqual([]);
  }, 60_000);
});
