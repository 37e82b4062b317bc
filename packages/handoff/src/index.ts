export { isPingPong } from './cycle-detector.js';
export { FileSessionStore, type FileSessionStoreOptions } from './file-session-store.js';
export {
  type Handoff,
  type HandoffInfo,
  type HandoffOptions,
  handoff,
  type InputFilter,
  isHandoff,
} from './handoff.js';
export { describeItem, formatArguments, type HistoryItem, historyItemSchema, toMessages } from './history.js';
export {
  assertNoLostTurns,
  InMemorySessionStore,
  type SessionState,
  type SessionStore,
  sessionStateSchema,
} from './session-store.js';
export { type SwarmDescriptorConfig, swarmConfigSchema, swarmDescriptor } from './swarm-descriptor.js';
export type { SwarmOptions } from './swarm-options.js';
export { type SwarmWorstCaseInput, swarmWorstCase } from './swarm-worst-case.js';
export {
  type HandoffRecord,
  type SwarmInterruption,
  type SwarmResult,
  type SwarmRunOptions,
  SwarmTeam,
  Team,
} from './team.js';
