import { describe, it } from 'vitest';
import type { TopologyResult } from '../composition/topology.js';
import { type JournalConformanceOptions, journalConformance } from './journal-conformance.js';
import { type TopologyConformanceOptions, topologyConformance } from './topology-conformance.js';

/** Registers the topology conformance suite as a vitest `describe` block, one test per check. */
export function topologyConformanceTests<R extends TopologyResult>(
  name: string,
  options: TopologyConformanceOptions<R>,
): void {
  describe(`${name} conformance`, () => {
    for (const check of topologyConformance(options)) it(check.name, check.run);
  });
}

/** Registers the journal store conformance suite as a vitest `describe` block, one test per check. */
export function journalConformanceTests(name: string, options: JournalConformanceOptions): void {
  describe(`${name} journal conformance`, () => {
    for (const check of journalConformance(options)) it(check.name, check.run, 30_000);
  });
}
