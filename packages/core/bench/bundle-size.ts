// `pnpm bench` (or `pnpm --filter @swarm/core exec tsx bench/bundle-size.ts` after a build): the
// bytes a browser app loads for an Agent on one provider, bundled from the BUILT packages as users
// get them (see bundle.ts: esbuild, platform browser, minified, split; gzip per chunk), with the
// SDK packages each loads. `ai` with `@ai-sdk/openai-compatible` (devDependencies of
// @swarm/ai-sdk) is printed beside them when installed; `@ai-sdk/openai` is not a dependency of
// this repository, so the AI SDK's own OpenAI provider is not measured.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type BundleMeasure, measureBundle } from './bundle.js';

const repo = fileURLToPath(new URL('../../..', import.meta.url));
const dist = (pkg: string) => `${repo}packages/${pkg}/dist/index.js`;
const core = JSON.stringify(dist('core'));
const agentOn = (model: string) =>
  `import { Agent } from ${core};\nexport const agent = new Agent({ name: 'a', instructions: 'Answer.', model: ${JSON.stringify(model)} });\n`;

const cases: { name: string; code: string; using: string[]; nodePaths?: string[]; needs: string[] }[] = [
  { name: 'core Agent, openai:', code: agentOn('openai:gpt-5.4'), using: ['openai'], needs: [dist('core')] },
  {
    name: 'core Agent, anthropic:',
    code: agentOn('anthropic:claude-opus-4-7'),
    using: ['@anthropic-ai/sdk'],
    needs: [dist('core')],
  },
  {
    name: 'core + all of @swarm/workflow, openai:',
    code: `${agentOn('openai:gpt-5.4')}export * from ${JSON.stringify(dist('workflow'))};\n`,
    using: ['openai'],
    needs: [dist('core'), dist('workflow')],
  },
  {
    name: 'core + all of @swarm/forest, openai:',
    code: `${agentOn('openai:gpt-5.4')}export * from ${JSON.stringify(dist('forest'))};\n`,
    using: ['openai'],
    needs: [dist('core'), dist('forest')],
  },
  {
    name: 'ai + @ai-sdk/openai-compatible (not @ai-sdk/openai)',
    code: `import { generateText, streamText } from 'ai';\nimport { createOpenAICompatible } from '@ai-sdk/openai-compatible';\nexport const model = createOpenAICompatible({ name: 'openai', baseURL: 'https://api.openai.com/v1' })('gpt-5.4');\nexport { generateText, streamText };\n`,
    using: [],
    nodePaths: [`${repo}packages/ai-sdk/node_modules`],
    needs: [
      `${repo}packages/ai-sdk/node_modules/ai`,
      `${repo}packages/ai-sdk/node_modules/@ai-sdk/openai-compatible`,
    ],
  },
];

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
console.log('Bundle size (esbuild, platform browser, minified; gzip per chunk): what the app loads');
const rows: [string, BundleMeasure][] = [];
for (const c of cases) {
  const missing = c.needs.find((path) => !existsSync(path));
  if (missing !== undefined) {
    console.log(`  ${c.name.padEnd(52)} skipped: ${missing} is not there (build first)`);
    continue;
  }
  const measure = await measureBundle(c.code, {
    using: c.using,
    ...(c.nodePaths && { nodePaths: c.nodePaths }),
  });
  rows.push([c.name, measure]);
  console.log(
    `  ${c.name.padEnd(52)} ${kb(measure.minified).padStart(10)} min ${kb(measure.gzipped).padStart(10)} gzip   loads: ${measure.sdks.join(', ') || '-'}`,
  );
}
const [, openaiAgent] = rows.find(([name]) => name === 'core Agent, openai:') ?? [];
if (openaiAgent?.sdks.includes('@anthropic-ai/sdk')) {
  console.log('  FAIL: an openai: Agent loads Anthropic SDK code');
  process.exitCode = 1;
}
console.log(
  '  (@ai-sdk/openai is not a dependency of this repository: the AI SDK with its own OpenAI provider is not measured.)',
);
