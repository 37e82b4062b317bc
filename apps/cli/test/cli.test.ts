import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SwarmEvent } from '@swarm/core';
import { type MockProviderServer, mockProviderServer } from '@swarm/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cooperativeModel, run, specsDir, swarm, swarmBin } from './swarm-process.js';

let server: MockProviderServer;
let env: Record<string, string>;
const dir = mkdtempSync(join(tmpdir(), 'swarm-cli-'));

beforeAll(async () => {
  server = await mockProviderServer({ handler: cooperativeModel() });
  env = {
    SWARM_MODEL: 'openai:mock-model',
    OPENAI_API_KEY: 'test-key',
    OPENAI_BASE_URL: server.openaiBaseURL,
  };
});
afterAll(() => server.close());

const specs = readdirSync(specsDir).filter((f) => f.endsWith('.yaml'));

describe('swarm run', () => {
  it.each(specs)(
    'runs examples/specs/%s against a provider and writes its trace and report',
    async (spec) => {
      const before = server.requests.length;
      const trace = join(dir, `${spec}.trace.json`);
      const report = join(dir, `${spec}.html`);
      const ran = await swarm(
        ['run', join(specsDir, spec), '--json', '--trace', trace, '--report', report],
        env,
      );
      expect(ran.stderr).toBe('');
      expect(ran.code).toBe(0);
      const result = JSON.parse(ran.stdout) as { output: string; llmCalls: number };
      expect(typeof result.output).toBe('string');
      expect(result.llmCalls).toBe(server.requests.length - before);
      const events = JSON.parse(readFileSync(trace, 'utf8')) as SwarmEvent[];
      expect(events[0]?.type).toBe('run.start');
      expect(events.at(-1)?.type).toBe('run.end');
      expect(readFileSync(report, 'utf8')).toContain('<!doctype html>');
    },
  );

  it('prints the answer alone by default, and takes the task from the command line', async () => {
    const ran = await swarm(
      ['run', join(specsDir, 'forest.yaml'), 'How', 'do', 'I', 'file', 'corporate', 'taxes?'],
      env,
    );
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/^answer \d+\n$/);
    const last = server.requests.at(-1)?.body.messages as { content: string }[];
    expect(last.at(-1)?.content).toBe('How do I file corporate taxes?');
  });

  it.runIf(existsSync('/usr/bin/script'))(
    'shows live progress on stderr when it is a terminal (a pseudo-terminal from util-linux script)',
    async () => {
      const command = [process.execPath, swarmBin, 'run', join(specsDir, 'sequential-workflow.yaml')]
        .map((a) => `'${a}'`)
        .join(' ');
      const ran = await run('/usr/bin/script', ['-qec', command, '/dev/null'], env);
      expect(ran.code).toBe(0);
      // The status line is drawn, redrawn as calls complete, and cleared before the answer.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the terminal's erase-line sequence
      expect(ran.stdout).toMatch(/\r\x1b\[2K. \d+\.\ds · 1 call\(s\) · \d+ tokens · \w+/);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the terminal's erase-line sequence
      expect(ran.stdout).toMatch(/\r\x1b\[2K\r?\n?answer \d+\r?\n$/);
    },
  );

  it('says how to configure a model when none is set, and exits non-zero', async () => {
    const ran = await swarm(['run', join(specsDir, 'forest.yaml')], {});
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(/^swarm: no model configured: set OPENAI_API_KEY/);
    expect(ran.stderr.trim().split('\n')).toHaveLength(1);
  });

  describe('a bad spec gives one clear line with the place in the file', () => {
    const bad = (name: string, text: string) => {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    };

    it('names an unknown topology and lists the known ones', async () => {
      const path = bad('unknown-topology.yaml', 'agents:\n  - name: a\ntopology: Nope\ntask: hi\n');
      const ran = await swarm(['run', path], env);
      expect(ran.code).toBe(2);
      expect(ran.stderr).toMatch(
        new RegExp(`^swarm: ${path}:3:11: topology: unknown topology "Nope"; registered: ForestSwarm, `),
      );
      expect(ran.stderr.trim().split('\n')).toHaveLength(1);
    });

    it('points at the unknown agent inside a flow, in one line', async () => {
      const path = bad(
        'unknown-flow-agent.yaml',
        'topology: AgentRearrange\nagents:\n  - name: a\n  - name: b\nconfig:\n  flow: a -> ghost\ntask: hi\n',
      );
      const ran = await swarm(['run', path], env);
      expect(ran.code).toBe(2);
      expect(ran.stderr).toBe(
        `swarm: ${path}:6:14: config.flow: AgentRearrange: unknown member "ghost" (members: "a", "b"; H for a human) at column 6 of the flow\n`,
      );
    });

    it('points at the edge that names an unknown node', async () => {
      const path = bad(
        'unknown-edge-node.yaml',
        'topology: GraphWorkflow\nagents:\n  - name: a\n  - name: b\nconfig:\n  edges:\n    - [a, b]\n    - [b, ghost]\ntask: hi\n',
      );
      const ran = await swarm(['run', path], env);
      expect(ran.code).toBe(2);
      expect(ran.stderr).toMatch(
        new RegExp(
          `^swarm: ${path}:8:7: config\\.edges\\[1\\]: GraphWorkflow: edges\\[1\\] names an unknown node "ghost"`,
        ),
      );
      expect(ran.stderr.trim().split('\n')).toHaveLength(1);
    });

    it('names a missing field at its agent', async () => {
      const path = bad(
        'missing-name.yaml',
        'topology: ForestSwarm\nagents:\n  - instructions: x\ntask: hi\n',
      );
      const ran = await swarm(['run', path], env);
      expect(ran.code).toBe(2);
      expect(ran.stderr).toBe(
        `swarm: ${path}:3:5: agents[0].name: Invalid input: expected string, received undefined\n`,
      );
    });

    it('names an unknown tool at its place in the list', async () => {
      const path = bad(
        'unknown-tool.yaml',
        'topology: ForestSwarm\nagents:\n  - name: a\n    tools: [calculator, web]\ntask: hi\n',
      );
      const ran = await swarm(['run', path], env);
      expect(ran.code).toBe(2);
      expect(ran.stderr).toBe(
        `swarm: ${path}:4:25: agents[0].tools[1]: unknown tool "web"; available: calculator, clock, word_count\n`,
      );
    });

    it('reports invalid YAML at its line and column', async () => {
      const path = bad('invalid.yaml', 'topology: ForestSwarm\nagents: [\n  name: a\n');
      const ran = await swarm(['run', path], env);
      expect(ran.code).toBe(2);
      expect(ran.stderr).toMatch(new RegExp(`^swarm: ${path}:\\d+:\\d+: invalid YAML: `));
      expect(ran.stderr.trim().split('\n')).toHaveLength(1);
    });

    it('reports every problem at once: a wrong type, a duplicate name, unknown tools, a bad model, bad config, no task', async () => {
      const path = bad(
        'everything-wrong.yaml',
        [
          'topology: ConcurrentWorkflow',
          'agents:',
          '  - name: writer',
          '    maxTurns: many',
          '  - name: writer',
          '    tools: [calculator, web]',
          '  - name: editor',
          '    model: nope:thing',
          'config:',
          '  onError: ignore',
          '',
        ].join('\n'),
      );
      const before = server.requests.length;
      const ran = await swarm(['run', path], env);
      expect(ran.code).toBe(2);
      expect(ran.stdout).toBe('');
      const lines = ran.stderr.trimEnd().split('\n');
      expect(
        lines.map((l) =>
          l
            .replace(/^swarm: /, '')
            .split(': ')
            .slice(0, 2)
            .join(': '),
        ),
      ).toEqual([
        `${path}:1:1: no task`,
        `${path}:4:15: agents[0].maxTurns`,
        `${path}:5:11: agents[1].name`,
        `${path}:6:25: agents[1].tools[1]`,
        `${path}:8:12: agents[2].model`,
        `${path}:10:12: config.onError`,
      ]);
      expect(lines[2]).toBe(`swarm: ${path}:5:11: agents[1].name: "writer" is also the name of agents[0]`);
      expect(server.requests.length).toBe(before);
      // With no model configured as well, that is one more line, after the spec's own.
      const unconfigured = await swarm(['run', path], {});
      expect(unconfigured.code).toBe(2);
      expect(unconfigured.stderr.trimEnd().split('\n')).toEqual([
        ...lines,
        expect.stringMatching(/^swarm: no model configured: /),
      ]);
    });

    it('refuses a YAML alias bomb at the alias, with exit 2 and no model call', async () => {
      const rows = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
      for (const [name, prev] of [
        ['b', 'a'],
        ['c', 'b'],
        ['d', 'c'],
        ['e', 'd'],
        ['f', 'e'],
      ]) {
        rows.push(`${name}: &${name} [${Array(10).fill(`*${prev}`).join(', ')}]`);
      }
      const path = bad(
        'alias-bomb.yaml',
        `${rows.join('\n')}\ntopology: SequentialWorkflow\nagents: [{ name: a }]\ntask: hi\n`,
      );
      const before = server.requests.length;
      const ran = await swarm(['run', path], env);
      expect(ran.code).toBe(2);
      expect(ran.stderr).toMatch(
        new RegExp(
          `^swarm: ${path}:3:\\d+: invalid YAML: Excessive alias count .*\\(aliases expand past the limit of 100\\)\n$`,
        ),
      );
      expect(server.requests.length).toBe(before);
    });

    it('reports a missing file in one line', async () => {
      const ran = await swarm(['run', join(dir, 'nowhere.yaml')], env);
      expect(ran.code).toBe(2);
      expect(ran.stderr).toBe(`swarm: ${join(dir, 'nowhere.yaml')}: cannot read the spec (no such file)\n`);
    });
  });

  it("reports a provider's failure in one line with its code, and still writes the trace", async () => {
    const failing = await mockProviderServer({ handler: () => ({ fault: 'server-error', retryAfterMs: 1 }) });
    try {
      const trace = join(dir, 'failed.trace.json');
      const ran = await swarm(['run', join(specsDir, 'forest.yaml'), '--trace', trace], {
        ...env,
        OPENAI_BASE_URL: failing.openaiBaseURL,
      });
      expect(ran.code).toBe(1);
      expect(ran.stderr).toMatch(/^swarm: the run failed: MODEL: /);
      expect(ran.stderr.trim().split('\n')).toHaveLength(1);
      const events = JSON.parse(readFileSync(trace, 'utf8')) as SwarmEvent[];
      expect(events.at(-1)?.type).toBe('run.error');
    } finally {
      await failing.close();
    }
  });
});

describe('output paths: checked before the first model call, written after the answer', () => {
  it('refuses a --report in a directory that does not exist, with exit 2 and no model call', async () => {
    const before = server.requests.length;
    const ran = await swarm(
      ['run', join(specsDir, 'sequential-workflow.yaml'), '--report', 'no-such-dir/r.html'],
      env,
      dir,
    );
    expect(ran).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'swarm: --report no-such-dir/r.html: no such directory: no-such-dir\n',
    });
    expect(server.requests.length).toBe(before);
  });

  it('names every bad output path at once: a missing directory, a directory, one file for two options', async () => {
    const before = server.requests.length;
    const twice = join(dir, 'twice.out');
    const missing = await swarm(
      ['run', join(specsDir, 'forest.yaml'), '--trace', join(dir, 'gone', 't.json'), '--report', dir],
      env,
    );
    const same = await swarm(
      ['run', join(specsDir, 'forest.yaml'), '--trace', twice, '--report', twice],
      env,
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      `swarm: --trace ${join(dir, 'gone', 't.json')}: no such directory: ${join(dir, 'gone')}\n` +
        `swarm: --report ${dir}: is a directory, not a file\n`,
    );
    expect(same).toMatchObject({
      code: 2,
      stderr: `swarm: --trace and --report both name ${twice}: give each its own file\n`,
    });
    expect(server.requests.length).toBe(before);
  });

  it('prints the answer and then the error when a report cannot be written after the run', async () => {
    const doomed = mkdtempSync(join(tmpdir(), 'swarm-doomed-'));
    const report = join(doomed, 'r.html');
    const trace = join(dir, 'kept.trace.json');
    // The report's directory is there when the command checks it, and gone when the run ends.
    const vanishing = await mockProviderServer({
      handler: cooperativeModel(() => {
        rmSync(doomed, { recursive: true, force: true });
        return { text: 'the answer' };
      }),
    });
    try {
      const ran = await swarm(['run', join(specsDir, 'forest.yaml'), '--trace', trace, '--report', report], {
        ...env,
        OPENAI_BASE_URL: vanishing.openaiBaseURL,
      });
      expect(ran).toEqual({
        code: 1,
        stdout: 'the answer\n',
        stderr: `swarm: --report ${report}: not written (no such file or directory)\n`,
      });
      expect(vanishing.requests).toHaveLength(1);
      const events = JSON.parse(readFileSync(trace, 'utf8')) as SwarmEvent[];
      expect(events.at(-1)?.type).toBe('run.end');
    } finally {
      await vanishing.close();
    }
  });

  it('refuses a demo --out that cannot be a directory before any model call', async () => {
    const before = server.requests.length;
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a directory');
    const ran = await swarm(['demo', '--out', join(file, 'reports')], env);
    expect(ran).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `swarm: --out ${join(file, 'reports')}: cannot make the directory (a parent is not a directory)\n`,
    });
    expect(server.requests.length).toBe(before);
  });

  it('refuses an output option given to a command that would ignore it', async () => {
    const ran = await swarm(['demo', '--report', join(dir, 'r.html')], env);
    expect(ran).toMatchObject({
      code: 2,
      stderr:
        'swarm: --report is not an option of swarm demo (it is one of swarm run, swarm resume, swarm eval)\n',
    });
    const out = await swarm(['run', join(specsDir, 'forest.yaml'), '--out', dir], env);
    expect(out).toMatchObject({
      code: 2,
      stderr: 'swarm: --out is not an option of swarm run (it is one of swarm demo)\n',
    });
  });
});

describe('swarm types and swarm demo', () => {
  it('lists every registered topology with what it is for', async () => {
    const ran = await swarm(['types']);
    expect(ran.code).toBe(0);
    for (const type of ['ForestSwarm', 'TreeOfThoughts', 'Swarm', 'MultiAgentRouter', 'AutoSwarmBuilder']) {
      expect(ran.stdout).toMatch(new RegExp(`^${type}  \\(`, 'm'));
    }
  });

  it('runs offline without a model: forest routing and a solved Game of 24, each with a report', async () => {
    const out = join(dir, 'demo');
    const ran = await swarm(['demo', '--out', out]);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain('-> Financial Services Tree / Tax Expert');
    expect(ran.stdout).toMatch(/uses each number once and equals 24/);
    expect(ran.stdout).toContain('To run every topology with a model');
    expect(readdirSync(out).sort()).toEqual(['forestswarm-routing.html', 'treeofthoughts-game-of-24.html']);
  });

  it('rejects an unknown option in one line with exit 2, and a run without a spec likewise', async () => {
    const ran = await swarm(['run', join(specsDir, 'forest.yaml'), '--jsn']);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(/^swarm: Unknown option '--jsn'/);
    expect(ran.stderr.trim().split('\n')).toHaveLength(1);
    expect(await swarm(['run'])).toMatchObject({
      code: 2,
      stderr: 'swarm: swarm run needs a spec file: swarm run <spec.yaml> [task]\n',
    });
  });

  it('prints the installed package version with --version and -v', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(await swarm(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    expect(await swarm(['-v'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('rejects an unknown command in one line', async () => {
    const ran = await swarm(['fly']);
    expect(ran).toMatchObject({ code: 2, stderr: 'swarm: unknown command "fly"; try swarm --help\n' });
  });
});

describe('a reader that stops early', () => {
  it('ends the command quietly when stdout is closed (swarm demo | head)', async () => {
    const child = spawn(process.execPath, [swarmBin, 'demo', '--out', join(dir, 'demo-epipe')], {
      env: { PATH: process.env.PATH ?? '', OLLAMA_HOST: 'http://127.0.0.1:9' },
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    // Read the first line, then close the pipe, as `head -1` does.
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
