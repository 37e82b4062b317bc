// Importing `@swarm/core` must not load `@anthropic-ai/sdk`; the first Anthropic call does. Checked
// in a child process whose module resolutions are logged by a loader hook, so the module graph
// is the real one of a fresh process, not vitest's.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('../..', import.meta.url));
const sourceUrl = (path: string) => pathToFileURL(join(packageDir, 'src', path)).href;

const hooks = `
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(process.env.MODULE_LOG, result.url + '\\n');
  return result;
}
`;

const register = `
import { register } from 'node:module';
register(new URL('./hooks.mjs', import.meta.url));
`;

// Reports, after each step, whether any module of @anthropic-ai/sdk (or openai) was resolved so far.
const child = `
import { readFileSync } from 'node:fs';
const loaded = (name) => readFileSync(process.env.MODULE_LOG, 'utf8').includes('/node_modules/' + name + '/');
const report = {};
const core = await import(${JSON.stringify(sourceUrl('index.ts'))});
const { mockProviderServer } = await import(${JSON.stringify(sourceUrl('testing/index.ts'))});
report.afterImport = loaded('@anthropic-ai/sdk');
const server = await mockProviderServer();
server.enqueue({ text: 'from openai' }, { text: 'from anthropic' });
const openai = core.openaiModel('gpt-5.4', { apiKey: 'k', baseURL: server.openaiBaseURL });
report.openaiText = (await openai.generate({ messages: [{ role: 'user', content: 'hi' }] })).text;
report.afterOpenAICall = loaded('@anthropic-ai/sdk');
const anthropic = core.anthropicModel('claude-opus-4-7', { apiKey: 'k', baseURL: server.anthropicBaseURL });
report.afterAnthropicModel = loaded('@anthropic-ai/sdk');
report.anthropicText = (await anthropic.generate({ messages: [{ role: 'user', content: 'hi' }] })).text;
report.afterAnthropicCall = loaded('@anthropic-ai/sdk');
await server.close();
console.log(JSON.stringify(report));
`;

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'swarm-lazy-sdk-'));
  await writeFile(join(dir, 'hooks.mjs'), hooks);
  await writeFile(join(dir, 'register.mjs'), register);
  await writeFile(join(dir, 'child.mjs'), child);
  await writeFile(join(dir, 'modules.log'), '');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('importing @swarm/core loads no Anthropic code until an Anthropic model makes its first call', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '--import', join(dir, 'register.mjs'), join(dir, 'child.mjs')],
    { cwd: packageDir, env: { ...process.env, MODULE_LOG: join(dir, 'modules.log') }, timeout: 90_000 },
  );
  expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({
    afterImport: false,
    openaiText: 'from openai',
    afterOpenAICall: false,
    afterAnthropicModel: false,
    anthropicText: 'from anthropic',
    afterAnthropicCall: true,
  });
}, 120_000); // a fresh process compiling TypeScript: slow on a busy machine
