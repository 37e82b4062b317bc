import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliError } from './cli-error.js';
import { maxAliasCount, readSpecFile } from './spec-file.js';

const dir = mkdtempSync(join(tmpdir(), 'swarm-spec-file-'));
const specAt = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const refusal = (path: string): CliError => {
  try {
    readSpecFile(path);
  } catch (error) {
    expect(error).toBeInstanceOf(CliError);
    return error as CliError;
  }
  throw new Error(`${path} was read`);
};

describe('readSpecFile', () => {
  it('says where a spec path is, down to a character of a one-line string', () => {
    const path = specAt(
      'places.yaml',
      'topology: AgentRearrange\nagents:\n  - name: a\n    tools: [calculator, web]\nconfig:\n  flow: "a -> ghost"\n',
    );
    const file = readSpecFile(path);
    expect(file.place('agents[0].tools[1]')).toEqual({ line: 4, col: 25 });
    expect(file.place('config.flow', 6)).toEqual({ line: 6, col: 15 });
    expect(file.where('agents[0].nothing')).toBe(`${path}:3:5`);
    expect(file.where('task')).toBe(`${path}:1:1`);
  });

  it('reports every syntax error of the file at once, each at its place', () => {
    const error = refusal(specAt('two-errors.yaml', 'topology: [a\nagents:\n  - name: "b\n'));
    expect(error.exitCode).toBe(2);
    const lines = error.message.split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(line).toMatch(/two-errors\.yaml:\d+:\d+: invalid YAML: /);
  });

  it('refuses an alias bomb at the alias that passes the limit, with exit 2', () => {
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (const [name, prev] of [
      ['b', 'a'],
      ['c', 'b'],
      ['d', 'c'],
      ['e', 'd'],
    ]) {
      lines.push(`${name}: &${name} [${Array(10).fill(`*${prev}`).join(', ')}]`);
    }
    const path = specAt('bomb.yaml', `${lines.join('\n')}\ntopology: SequentialWorkflow\n`);
    const error = refusal(path);
    expect(error.exitCode).toBe(2);
    const found = new RegExp(
      `^${path}:(\\d+):(\\d+): invalid YAML: Excessive alias count indicates a resource exhaustion attack \\(aliases expand past the limit of ${maxAliasCount}\\)$`,
    ).exec(error.message);
    expect(found).not.toBeNull();
    // The place is an alias of line 3, the first collection whose expansion passes the limit.
    const [, line, col] = found!.map(Number);
    expect(line).toBe(3);
    expect(lines[2]!.slice(col! - 1)).toMatch(/^\*b\b/);
  });

  it('reads a spec that shares a value through aliases as a user would write it', () => {
    const path = specAt(
      'shared.yaml',
      'shared: &rules You answer briefly.\nagents:\n  - { name: a, instructions: *rules }\n  - { name: b, instructions: *rules }\n',
    );
    expect(readSpecFile(path).data).toMatchObject({
      agents: [{ instructions: 'You answer briefly.' }, { instructions: 'You answer briefly.' }],
    });
  });

  it('refuses nesting too deep to parse in one line with its place', () => {
    const error = refusal(specAt('deep.yaml', `a: ${'['.repeat(5000)}${']'.repeat(5000)}\n`));
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(/^\S+deep\.yaml:1:\d+: invalid YAML: nested too deeply to read$/);
  });
});
