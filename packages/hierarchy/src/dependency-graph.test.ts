import { describe, expect, it } from 'vitest';
import { dependencyProblems, findCycle } from './dependency-graph.js';

describe('dependencyProblems', () => {
  it('finds nothing wrong with a sound graph', () => {
    expect(
      dependencyProblems([{ id: 'a' }, { id: 'b', dependsOn: ['a'] }, { id: 'c', dependsOn: ['a', 'b'] }]),
    ).toEqual([]);
  });

  it('names an unknown dependency, a self-dependency and a duplicate id', () => {
    const problems = dependencyProblems([
      { id: 'a', dependsOn: ['zzz'] },
      { id: 'b', dependsOn: ['b'] },
      { id: 'a' },
    ]);
    expect(problems).toEqual([
      'two items have the id "a"; ids must be unique',
      '"a" depends on "zzz", which is not an id of this plan (ids: a, b)',
      '"b" depends on itself',
    ]);
  });

  it('names a cycle with its path', () => {
    const problems = dependencyProblems([
      { id: 'a', dependsOn: ['c'] },
      { id: 'b', dependsOn: ['a'] },
      { id: 'c', dependsOn: ['b'] },
    ]);
    expect(problems).toEqual(['the dependencies form a cycle: a -> c -> b -> a']);
  });
});

describe('findCycle', () => {
  it('returns undefined for a diamond, which shares a dependency without a cycle', () => {
    expect(
      findCycle([
        { id: 'top' },
        { id: 'left', dependsOn: ['top'] },
        { id: 'right', dependsOn: ['top'] },
        { id: 'bottom', dependsOn: ['left', 'right'] },
      ]),
    ).toBeUndefined();
  });

  it('finds a two-item cycle', () => {
    expect(
      findCycle([
        { id: 'x', dependsOn: ['y'] },
        { id: 'y', dependsOn: ['x'] },
      ]),
    ).toEqual(['x', 'y', 'x']);
  });
});
