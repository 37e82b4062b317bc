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

// Reports, after each step, which SDKs (@anthropic-ai/sdk, openai) were resolved so far; FIRST
// names the provider called first.
const child = `
import { readFileSync } from 'node:fs';
const loaded = (name) => readFileSync(process.env.MODULE_LOG, 'utf8').includes('/node_modules/' + name + '/');
const sdks = () => ({ anthropic: loaded('@anthropic-ai/sdk'), openai: loaded('openai') });
const report = {};
const core = await import(${JSON.stringify(sourceUrl('index.ts'))});
const { mockProviderServer } = await import(${JSON.stringify(sourceUrl('testing/index.ts'))});
report.afterImport = sdks();
const server = await mockProviderServer();
server.enqueue({ text: 'one' }, { text: 'two' });
const calls = {
  openai: async () => {
    const model = core.resolveModel('openai:gpt-5.4');
    return (await model.generate({ messages: [{ role: 'user', content: 'hi' }] })).text;
  },
  anthropic: async () => {
    const model = core.resolveModel('anthropic:claude-opus-4-7');
    return (await model.generate({ messages: [{ role: 'user', content: 'hi' }] })).text;
  },
};
process.env.OPENAI_API_KEY = 'k';
process.env.OPENAI_BASE_URL = server.openaiBaseURL;
process.env.ANTHROPIC_API_KEY = 'k';
process.env.ANTHROPIC_BASE_URL = server.anthropicBaseURL;
const first = process.env.FIRST;
const second = first === 'openai' ? 'anthropic' : 'openai';
report.firstText = await calls[first]();
report.afterFirstCall = sdks();
report.secondText = await calls[second]();
report.afterSecondCall = sdks();
await server.close();
console.log(JSON.stringify(report));
`;

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'swarm-lazy-sdk-'));
  await writeFile(join(dir, 'hooks.mjs'), hooks);
  await writeFile(join(dir, 'register.mjs'), register);
  await writeFile(join(dir, 'child.mjs'), child);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function runChild(first: 'openai' | 'anthropic'): Promise<unknown> {
  const log = join(dir, `modules-${first}.log`);
  await writeFile(log, '');
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '--import', join(dir, 'register.mjs'), join(dir, 'child.mjs')],
    { cwd: packageDir, env: { ...process.env, MODULE_LOG: log, FIRST: first }, timeout: 90_000 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

it('importing @swarm/core loads no SDK; an openai: model loads no Anthropic code until an Anthropic call', async () => {
  expect(await runChild('openai')).toEqual({
    afterImport: { anthropic: false, openai: false },
    firstText: 'one',
    afterFirstCall: { anthropic: false, openai: true },
    secondText: 'two',
    afterSecondCall: { anthropic: true, openai: true },
  });
}, 120_000); // a fresh process compiling TypeScript: slow on a busy machine

it('an anthropic: model loads no OpenAI code until an OpenAI call', async () => {
  expect(await runChild('anthropic')).toEqual({
    afterImport: { anthropic: false, openai: false },
    firstText: 'one',
    afterFirstCall: { anthropic: true, openai: false },
    secondText: 'two',
    afterSecondCall: { anthropic: true, openai: true },
  });
}, 120_000);
