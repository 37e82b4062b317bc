export { type AutoModelOptions, autoModel, autoReply, CountingModel } from './auto-model.js';
export {
  type CanonicalPart,
  type CassetteEntry,
  type CassetteError,
  type CassetteRequest,
  canonicalJson,
  contentHash,
  type Difference,
  firstDifference,
} from './cassette.js';
export { Gate } from './gate.js';
export { type JournalConformanceOptions, journalConformance } from './journal-conformance.js';
export {
  type MockApi,
  type MockFault,
  type MockHandler,
  type MockProviderServer,
  type MockProviderServerOptions,
  type MockReply,
  type MockRequest,
  type MockStep,
  type MockToolCall,
  mockProviderServer,
} from './mock-provider-server.js';
export { goneWithin, processGone } from './processes.js';
export { type RecordModelOptions, recordModel } from './record-model.js';
export { type RefundDesk, type RefundDeskOptions, refundDesk } from './refund-desk.js';
export { ReplayMismatchError, ReplayModel, type ReplayModelOptions, replayModel } from './replay-model.js';
export { sampleFromSchema } from './schema-sample.js';
export {
  fail,
  object,
  reply,
  respond,
  ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedReply,
  type ScriptedToolCall,
  type ScriptStep,
  toolCall,
  toolCalls,
} from './scripted-model.js';
export {
  type ConformanceCheck,
  ConformanceError,
  type TopologyConformanceOptions,
  topologyConformance,
} from './topology-conformance.js';
