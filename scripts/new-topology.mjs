#!/usr/bin/env node
// Scaffolds a new topology package: `pnpm new:topology <name>` writes packages/<name> with a
// topology class, its descriptor, tests (the conformance suite included), a README and a changeset,
// then links it into the workspace. The generated package passes `pnpm test` and `pnpm lint` as is.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [name, ...flags] = process.argv.slice(2);

if (!name || !/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name)) {
  fail('usage: pnpm new:topology <name>   (kebab-case, e.g. "relay-race")');
}
const dir = join(root, 'packages', name);
if (existsSync(dir)) fail(`packages/${name} already exists.`);

const pascal = name.replace(/(^|-)([a-z0-9])/g, (_, __, c) => c.toUpperCase());
const camel = pascal[0].toLowerCase() + pascal.slice(1);
const pkg = `@swarm/${name}`;
const catalogOf = (file) => JSON.parse(readFileSync(join(root, file), 'utf8'));
const core = catalogOf('packages/core/package.json');

const files = {
  'package.json': `${JSON.stringify(
    {
      name: pkg,
      version: '0.0.0',
      description: `${pascal}: members take turns on a task and the last answer stands.`,
      license: 'MIT',
      type: 'module',
      sideEffects: false,
      engines: core.engines,
      exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
      files: ['dist'],
      scripts: { build: 'tsup', typecheck: 'tsc --noEmit', test: 'vitest run' },
      dependencies: { '@swarm/core': 'workspace:*', zod: 'catalog:' },
      devDependencies: {
        '@types/node': 'catalog:',
        tsup: 'catalog:',
        typescript: 'catalog:',
        vite: 'catalog:',
        vitest: 'catalog:',
      },
    },
    null,
    2,
  )}\n`,
  'tsconfig.json': `{\n  "extends": "../../tsconfig.base.json",\n  "include": ["src"]\n}\n`,
  'tsup.config.ts': `import { packageBuild } from '../../tsup.shared';\n\nexport default packageBuild();\n`,
  'vitest.config.ts': `export { default } from '../../vitest.shared.ts';\n`,
  'src/index.ts': `export { ${pascal}, type ${pascal}Options, type ${pascal}Result } from './${name}.js';
export { ${camel}Descriptor } from './${name}-descriptor.js';
`,
  [`src/${name}.ts`]: `import {
  BaseTopology,
  budgetStop,
  ConfigError,
  type Member,
  memberName,
  memberTurn,
  type Message,
  nonEmptyAnswer,
  type RunOptions,
  runMember,
  runTopology,
  type TopologyResult,
  validateMembers,
} from '@swarm/core';

/** Options of a ${pascal}. */
export interface ${pascal}Options {
  /** The members, in the order they take their turns: Agents or whole Topologies. */
  agents: readonly Member[];
  /** How many times the whole line of members takes its turns (default 1). */
  rounds?: number;
  name?: string;
}

/** What a ${pascal} run returns: the last answer, and every turn keyed by member in order. */
export interface ${pascal}Result extends TopologyResult {
  turns: { agent: string; output: string }[];
}

/**
 * Members take turns on a task: each sees the task and the turns before it as typed turns, and
 * the last answer stands. Replace this algorithm with your topology's own.
 */
export class ${pascal} extends BaseTopology<${pascal}Result> {
  readonly type = '${pascal}';
  readonly name: string;
  readonly agents: readonly Member[];
  readonly rounds: number;

  constructor(options: ${pascal}Options) {
    super();
    this.agents = validateMembers(options?.agents, '${pascal}');
    this.rounds = options.rounds ?? 1;
    if (!Number.isInteger(this.rounds) || this.rounds < 1) {
      throw new ConfigError(\`${pascal}: rounds must be an integer >= 1 (got \${options.rounds}).\`);
    }
    this.name = options.name ?? '${name}';
  }

  run(task: string, options: RunOptions = {}): Promise<${pascal}Result> {
    if (typeof task !== 'string' || task.trim() === '') {
      return Promise.reject(new ConfigError('${pascal}.run: task must be a non-empty string.'));
    }
    return runTopology<${pascal}Result>(this, { task }, options, async (context) => {
      const turns: ${pascal}Result['turns'] = [];
      const thread: Message[] = [{ role: 'user', content: task }];
      for (let round = 0; round < this.rounds; round++) {
        for (const [index, member] of this.agents.entries()) {
          try {
            // The last answer is the run's: one that comes back empty is asked for once more, then
            // the run fails with NO_ANSWER (core's nonEmptyAnswer); it never answers ''.
            const last = round === this.rounds - 1 && index === this.agents.length - 1;
            const answer = () => runMember(member, thread, context);
            const { output } = await (last ? nonEmptyAnswer(memberName(member), context, answer) : answer());
            turns.push({ agent: memberName(member), output });
            thread.push(memberTurn(memberName(member), output));
            context.emit({ type: '${camel}.turn', agent: memberName(member), round });
          } catch (error) {
            const reason = budgetStop(error);
            if (!reason) throw error;
            return { output: turns.at(-1)?.output ?? '', turns, interrupted: true, interruptionReason: reason };
          }
        }
      }
      return { output: turns.at(-1)?.output ?? '', turns };
    });
  }
}
`,
  [`src/${name}-descriptor.ts`]: `import type { TopologyDescriptor } from '@swarm/core';
import { z } from 'zod';
import { ${pascal} } from './${name}.js';

const configSchema = z.object({ rounds: z.number().int().min(1).optional() }).strict();

/** ${pascal} for a router: every agent takes a turn, \`rounds\` times. */
export const ${camel}Descriptor: TopologyDescriptor<z.infer<typeof configSchema>> = {
  type: '${pascal}',
  description: 'Members take turns on a task, each seeing the turns before it; the last answer stands.',
  minAgents: 1,
  configSchema,
  worstCase: (agents, config) => ({ maxCalls: agents.length * (config.rounds ?? 1) * Math.max(...agents.map((a) => a.maxTurns)) }),
  create: (agents, config) => new ${pascal}({ agents, ...configSchema.parse(config ?? {}) }),
};
`,
  [`src/${name}.test.ts`]: `import { Agent, ConfigError } from '@swarm/core';
import { reply, ScriptedModel } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { ${pascal} } from './${name}.js';
import { ${camel}Descriptor } from './${name}-descriptor.js';

const agent = (name: string, ...answers: string[]) =>
  new Agent({ name, model: new ScriptedModel(answers.map((a) => reply(a))) });

describe('${pascal}', () => {
  it("gives each member the task and the turns before it, and answers with the last member's text", async () => {
    const writer = agent('writer', 'A draft.');
    const editor = agent('editor', 'A final text.');
    const result = await new ${pascal}({ agents: [writer, editor] }).run('Write a haiku.');
    expect(result.output).toBe('A final text.');
    expect(result.turns).toEqual([
      { agent: 'writer', output: 'A draft.' },
      { agent: 'editor', output: 'A final text.' },
    ]);
    expect((editor.model as ScriptedModel).lastCall?.messages).toEqual([
      { role: 'user', content: 'Write a haiku.' },
      { role: 'user', name: 'writer', content: 'A draft.' },
    ]);
  });

  it('stops at the budget and answers with what it has', async () => {
    const result = await new ${pascal}({ agents: [agent('a', 'one'), agent('b', 'two')] }).run('go', {
      budget: { maxCalls: 1 },
    });
    expect(result).toMatchObject({ output: 'one', interrupted: true, interruptionReason: 'budget:calls' });
  });

  it('rejects bad options at construction', () => {
    expect(() => new ${pascal}({ agents: [] })).toThrow(ConfigError);
    expect(() => new ${pascal}({ agents: [agent('a')], rounds: 0 })).toThrow(/rounds/);
  });

  it('builds from its descriptor and previews its worst case', () => {
    const agents = [agent('a'), agent('b')];
    expect(${camel}Descriptor.create(agents, { rounds: 2 }).type).toBe('${pascal}');
    expect(${camel}Descriptor.worstCase?.(agents, { rounds: 2 })).toEqual({ maxCalls: 40 });
  });
});
`,
  [`src/${name}-conformance.test.ts`]: `import { Agent } from '@swarm/core';
import { topologyConformanceTests } from '@swarm/core/testing/vitest';
import { ${pascal} } from './${name}.js';

topologyConformanceTests('${pascal}', {
  create: (model, { tools }) =>
    new ${pascal}({
      agents: [new Agent({ name: 'first', model, tools }), new Agent({ name: 'second', model, tools })],
      rounds: 2,
    }),
});
`,
  'README.md': `# ${pkg}

${pascal}: members take turns on a task, each seeing the turns before it; the last answer stands.

\`\`\`ts
import { Agent } from '@swarm/core';
import { ${pascal} } from '${pkg}';

const writer = new Agent({ name: 'writer', instructions: 'Write a first draft.', model: 'gpt-5.4' });
const editor = new Agent({ name: 'editor', instructions: 'Tighten the draft.', model: 'gpt-5.4' });

const result = await new ${pascal}({ agents: [writer, editor] }).run('Write a haiku about rain.');
console.log(result.output, result.turns);
\`\`\`

## How it runs

1. Each member, in order, gets the task and every turn before it as typed turns.
2. After \`rounds\` passes, the last answer is the output.

Members are Agents or whole Topologies (a Topology member runs nested in the run, with one budget
and one trace). A budget stop answers with the last answer so far and marks the result
\`interrupted\`.

## Seed names and ours

| seed | here | why |
| --- | --- | --- |
| (fill in) | | |

## Events

\`run.start\`, \`${camel}.turn\` per turn, \`run.end\` (or \`run.error\`), plus core's model and agent events.

## Install

\`\`\`sh
npm install ${pkg} zod
\`\`\`

ESM only (\`"type": "module"\`), for Node 22.12 or newer; CommonJS code can \`require('${pkg}')\` on
Node 22.12+ through require(esm). zod is a peer dependency (\`^4.0.0\`).
`,
};

for (const [file, text] of Object.entries(files)) {
  const path = join(dir, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}
writeFileSync(
  join(root, '.changeset', `${name}-initial.md`),
  `---\n'${pkg}': minor\n---\n\nNew package: ${pascal}.\n`,
);
console.log(`Created packages/${name} (${pkg}) and .changeset/${name}-initial.md.`);

// The browser check (examples/browser) bundles every package's built entry, so turbo must build
// the new package before that test runs: it becomes a dev dependency of the example.
const browserManifest = join(root, 'examples', 'browser', 'package.json');
const browser = JSON.parse(readFileSync(browserManifest, 'utf8'));
browser.devDependencies = Object.fromEntries(
  Object.entries({ ...browser.devDependencies, [pkg]: 'workspace:*' }).sort(([a], [b]) => a.localeCompare(b)),
);
writeFileSync(browserManifest, `${JSON.stringify(browser, null, 2)}\n`);

// The metadata every published package carries (license, repository, zod as a peer), as CI checks it.
execFileSync(process.execPath, [join(root, 'scripts', 'package-metadata.mjs'), '--fix'], {
  cwd: root,
  stdio: 'inherit',
});

if (!flags.includes('--no-install')) {
  execFileSync('pnpm', ['install', '--no-frozen-lockfile'], { cwd: root, stdio: 'inherit' });
  execFileSync('pnpm', ['exec', 'biome', 'check', '--write', `packages/${name}`], {
    cwd: root,
    stdio: 'inherit',
  });
}
console.log(
  `Next: write the algorithm in packages/${name}/src/${name}.ts, then \`pnpm test\`. See CONTRIBUTING.md.`,
);

function fail(message) {
  console.error(message);
  process.exit(1);
}
