import { topologyConformanceTests } from '@swarm/core/testing/vitest';
import { HeavySwarm } from './heavy-swarm.js';

topologyConformanceTests('HeavySwarm', {
  task: 'Should a small bakery open a second shop?',
  create: (model) => new HeavySwarm({ model, maxLoops: 2 }),
});
