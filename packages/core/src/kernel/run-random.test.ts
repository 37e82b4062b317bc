import { describe, expect, it } from 'vitest';
import { RunContext } from './run-context.js';
import { runRandom } from './run-random.js';

const draws = (random: () => number, n = 5) => Array.from({ length: n }, random);

describe('runRandom', () => {
  it('draws the same numbers for the same run id, place and scope, so a resumed run takes the same branches', () => {
    const first = draws(runRandom(new RunContext({ runId: 'r1', topology: 'T' }), 'shuffle', 2));
    const again = draws(runRandom(new RunContext({ runId: 'r1', topology: 'T' }), 'shuffle', 2));
    expect(again).toEqual(first);
    expect(first.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(new Set(first).size).toBe(5);
  });

  it('draws differently for another run id, another scope, or another place in the run tree', () => {
    const base = draws(runRandom(new RunContext({ runId: 'r1', topology: 'T' }), 'shuffle'));
    expect(draws(runRandom(new RunContext({ runId: 'r2', topology: 'T' }), 'shuffle'))).not.toEqual(base);
    expect(draws(runRandom(new RunContext({ runId: 'r1', topology: 'T' }), 'ties'))).not.toEqual(base);
    const parent = new RunContext({ runId: 'r1', topology: 'T' });
    const nested = new RunContext({ parent, topology: 'Inner' });
    const inner = draws(runRandom(nested, 'shuffle'));
    expect(inner).not.toEqual(base);
    // A nested run draws from the outermost run's id, not its own (which is new on every resume).
    const resumedParent = new RunContext({ runId: 'r1', topology: 'T' });
    expect(draws(runRandom(new RunContext({ parent: resumedParent, topology: 'Inner' }), 'shuffle'))).toEqual(
      inner,
    );
  });
});
