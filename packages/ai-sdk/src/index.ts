export { type AiSdkModelOptions, aiSdkModel } from './ai-sdk-model.js';
export { classifyAiSdkError } from './classify-error.js';
export type { RunResultLike } from './run-chunks.js';
export type {
  SwarmAgentData,
  SwarmPartOrigin,
  SwarmResultData,
  SwarmRunData,
  SwarmUIDataTypes,
  SwarmUIMessage,
  SwarmUIMessageChunk,
} from './ui-data-types.js';
export {
  type RunSource,
  resumeFromMessages,
  type ToUIMessageStreamOptions,
  toUIMessageStream,
  toUIMessageStreamResponse,
  type UIMessageStreamResponseInit,
  type UIResume,
} from './ui-message-stream.js';
