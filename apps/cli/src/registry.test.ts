import { Agent, ConfigError } from '@swarm/core';
import { ScriptedModel } from '@swarm/core/testing';
import { SwarmRouter } from '@swarm/router';
import { describe, expect, it } from 'vitest';
import { topologies } from './registry.js';

const agentsFor = (min = 1, max?: number) => {
  const count = Math.min(Math.max(min, 4), max ?? Number.POSITIVE_INFINITY);
  return Array.from(
    { length: count },
    (_, i) => new Agent({ name: `agent-${i}`, model: new ScriptedModel([]), instructions: `Agent ${i}.` }),
  );
};

describe('every descriptor of every package', () => {
  it.each(topologies.map((d) => [d.type, d] as const))(
    '%s refuses an unknown config key with a ConfigError naming it',
    (_type, descriptor) => {
      expect(descriptor.configSchema, 'a descriptor without a schema accepts anything').toBeDefined();
      const parsed = descriptor.configSchema!.safeParse({ notAnOption: 2 });
      expect(parsed.success).toBe(false);
      expect(JSON.stringify(parsed.error?.issues)).toContain('notAnOption');

      const build = () =>
        new SwarmRouter({
          agents: agentsFor(descriptor.minAgents, descriptor.maxAgents),
          swarmType: descriptor.type,
          topologies,
          config: { notAnOption: 2 },
        });
      expect(build).toThrow(ConfigError);
      expect(build).toThrow(/notAnOption/);
    },
  );
});
