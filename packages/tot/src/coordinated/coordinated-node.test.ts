import { describe, expect, it } from 'vitest';
import { CoordinatedThoughtNode, validateThoughtNode } from './coordinated-node.js';

const root = new CoordinatedThoughtNode({
  id: 'root',
  thought: 'The problem',
  depth: 0,
  parent: null,
  status: 'active',
});
const child = {
  id: 'root-0',
  parentId: 'root',
  thought: 'A strategy',
  depth: 1,
  status: 'generated' as const,
};

describe('validateThoughtNode', () => {
  it('admits a node that fits its parent', () => {
    expect(validateThoughtNode(child, root)).toEqual({ valid: true });
    expect(
      validateThoughtNode({ ...child, id: 'root', parentId: null, depth: 0, status: 'active' }, null),
    ).toEqual({
      valid: true,
    });
  });

  it.each([
    [{ ...child, thought: '  ' }, 'thought: the thought is empty'],
    [{ ...child, id: '' }, 'id: the id is empty'],
    [{ ...child, depth: 2 }, "depth 2 is not the parent's depth + 1 (1)"],
    [{ ...child, depth: 1.5 }, 'depth: '],
    [{ ...child, parentId: 'other' }, "parentId other is not the parent's id root"],
    [{ ...child, status: 'pruned' as never }, 'status: '],
  ])('rejects %o with the reason', (data, reason) => {
    const verdict = validateThoughtNode(data, root);
    expect(verdict.valid).toBe(false);
    expect(verdict.valid === false && verdict.reason).toContain(reason);
  });

  it('rejects a second node with an id already in the tree', () => {
    expect(validateThoughtNode(child, root, new Set(['root', 'root-0']))).toEqual({
      valid: false,
      reason: 'the id root-0 is already in the tree',
    });
  });
});

describe('CoordinatedThoughtNode', () => {
  it('knows its path and serializes its subtree without the parent link', () => {
    const a = new CoordinatedThoughtNode({
      id: 'root-0',
      thought: 'A',
      depth: 1,
      parent: root,
      status: 'active',
    });
    const b = new CoordinatedThoughtNode({
      id: 'root-0-0',
      thought: 'B',
      depth: 2,
      parent: a,
      status: 'generated',
    });
    a.children.push(b);

    expect(b.path).toEqual(['A', 'B']);
    expect(JSON.parse(JSON.stringify(a))).toMatchObject({
      id: 'root-0',
      parentId: 'root',
      path: ['A'],
      children: [{ id: 'root-0-0', parentId: 'root-0', status: 'generated', score: null, path: ['A', 'B'] }],
    });
    expect(Object.keys(a.toJSON())).not.toContain('parent');
  });
});
