import { describe, expect, it } from 'vitest';
import { Agent } from '../agent/agent.js';
import { ConfigError } from '../kernel/errors.js';
import { ScriptedModel } from '../testing/index.js';
import { roleRefSchema, splitHead } from './head-role.js';

const model = new ScriptedModel([]);
const other = new ScriptedModel([]);
const agents = ['ada', 'bob', 'cy'].map((name) => new Agent({ name, model }));

describe('splitHead', () => {
  it("by default keeps every agent a worker and heads on the first agent's model, as swarms", () => {
    const { head, workers } = splitHead('T', 'director', agents, undefined);
    expect(workers).toEqual(agents);
    expect(head).toBe(model);
    expect(splitHead('T', 'director', agents, undefined, other).head).toBe(other);
  });

  it('takes an agent named in roles out of the workers', () => {
    const { head, workers } = splitHead('T', 'director', agents, 'bob');
    expect(head).toBe(agents[1]);
    expect(workers.map((a) => a.name)).toEqual(['ada', 'cy']);
  });

  it('lets a given Agent or Model head while every agent works', () => {
    const boss = new Agent({ name: 'boss', model: other });
    expect(splitHead('T', 'director', agents, boss)).toEqual({ head: boss, workers: agents });
    expect(splitHead('T', 'director', agents, other)).toEqual({ head: other, workers: agents });
  });

  it('says a role string is neither an agent nor a model', () => {
    expect(() => splitHead('T', 'chairman', agents, 'nobody:x')).toThrow(ConfigError);
    expect(() => splitHead('T', 'chairman', agents, 'nobody:x')).toThrow(
      /roles\.chairman "nobody:x" is neither one of the agents \(ada, bob, cy\) nor a model/,
    );
  });

  it('validates a role in a config: a string, an Agent or a Model, nothing else', () => {
    expect(roleRefSchema.safeParse('ada').success).toBe(true);
    expect(roleRefSchema.safeParse(agents[0]).data).toBe(agents[0]);
    expect(roleRefSchema.safeParse(model).data).toBe(model);
    expect(roleRefSchema.safeParse(42).success).toBe(false);
    expect(roleRefSchema.safeParse('').success).toBe(false);
  });
});
