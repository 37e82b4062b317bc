import { ConfigError } from '@swarm/core';
import { describe, expect, it } from 'vitest';
import { flowMembers, parseFlow } from './flow-parser.js';

const members = new Set(['researcher', 'writer', 'critic', 'editor', 'tax expert']);

/** The ConfigError a flow raises. */
function errorOf(flow: string): ConfigError {
  try {
    parseFlow(flow, members);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`the flow ${JSON.stringify(flow)} parsed`);
}

/** The column the caret points at in an error message (1-based). */
function caretColumn(error: Error): number {
  const lines = error.message.split('\n');
  return lines.at(-1)!.indexOf('^') - 1;
}

describe('parseFlow', () => {
  it('reads "->" as steps in order and "," as members of one step', () => {
    expect(parseFlow('researcher -> writer, critic -> editor', members)).toEqual([
      [{ kind: 'member', name: 'researcher', column: 1 }],
      [
        { kind: 'member', name: 'writer', column: 15 },
        { kind: 'member', name: 'critic', column: 23 },
      ],
      [{ kind: 'member', name: 'editor', column: 33 }],
    ]);
  });

  it('allows repeats, names with spaces, no spaces around symbols, groups and the human step', () => {
    const steps = parseFlow('writer->critic->(tax expert -> writer), H->writer', members);
    expect(flowMembers(steps)).toEqual(['writer', 'critic', 'tax expert', 'writer', 'writer']);
    expect(steps[2]).toEqual([
      {
        kind: 'group',
        column: 17,
        steps: [
          [{ kind: 'member', name: 'tax expert', column: 18 }],
          [{ kind: 'member', name: 'writer', column: 32 }],
        ],
      },
      { kind: 'human', column: 41 },
    ]);
  });

  it.each([
    ['researcher -> writr', 15, /unknown member "writr"/],
    ['researcher -> -> editor', 15, /empty step: a member must come before "->"/],
    ['-> editor', 1, /empty step/],
    ['researcher, , editor', 13, /empty member: a member must come before ","/],
    ['researcher -> editor ->', 24, /the flow ends where a member was expected/],
    ['', 1, /the flow is empty/],
    ['researcher -> (writer, critic', 30, /missing "\)" to close the "\(" at column 15/],
    ['researcher -> () -> editor', 16, /empty group "\(\)"/],
    ['researcher) -> editor', 11, /unmatched "\)"/],
    ['researcher -> (writer,) -> editor', 23, /a member must come before "\)"/],
  ])('rejects %j with an error pointing at column %i', (flow, column, message) => {
    const error = errorOf(flow);
    expect(error.message).toMatch(message);
    expect(error.message).toContain(`at column ${column} of the flow:\n  ${flow}\n`);
    expect(caretColumn(error)).toBe(column);
  });

  it('counts columns across a flow written on several lines, and quotes it on one', () => {
    const error = errorOf('researcher ->\n  writr');
    expect(error.message).toContain('at column 17 of the flow:\n  researcher ->   writr\n');
    expect(caretColumn(error)).toBe(17);
  });

  it('lists the members when a name is unknown', () => {
    expect(errorOf('editor -> researchr').message).toContain(
      'unknown member "researchr" (members: "researcher", "writer", "critic", "editor", "tax expert"; H for a human)',
    );
  });

  it('refuses a flow that is not a string', () => {
    expect(() => parseFlow(undefined as unknown as string, members)).toThrow(/flow must be a string/);
  });
});
