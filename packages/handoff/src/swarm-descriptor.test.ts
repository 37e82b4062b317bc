import { reply } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { handTo, supportDesk } from './support-desk.fixture.js';
import { swarmDescriptor } from './swarm-descriptor.js';

describe('swarmDescriptor', () => {
  it('builds a swarm from agents named by their names, starting at the first', async () => {
    const desk = supportDesk({ triage: [handTo('billing', 'refund')], billing: [reply('Refunded.')] });
    const team = swarmDescriptor.create([desk.triage, desk.billing, desk.tech], { maxHandoffs: 2 });

    const result = await team.run('I was charged twice');

    expect(team.type).toBe('Swarm');
    expect(result.output).toBe('Refunded.');
    expect(desk.models.triage.calls).toHaveLength(1);
  });

  it('rejects two agents with one name', () => {
    const desk = supportDesk({});
    expect(() => swarmDescriptor.create([desk.triage, desk.triage], {})).toThrow(/share a name/);
  });
});
