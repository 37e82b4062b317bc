export { GenAI, genAiFinishReason, operations, systemAndModel } from './gen-ai.js';
export { type OtelTracer, type OtelTracerOptions, otelTracer } from './otel-tracer.js';
