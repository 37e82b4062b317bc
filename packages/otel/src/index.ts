export { GenAI, genAiFinishReason, operations, providerAndModel } from './gen-ai.js';
export { type OtelTracer, type OtelTracerOptions, otelTracer } from './otel-tracer.js';
