// Record a run, replay it offline, and draw the replay's OpenTelemetry spans as a tree.
import { join } from 'node:path';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { Model } from '@swarm/core';
import { type ReplayModel, recordModel, replayModel } from '@swarm/core/testing';
import { otelTracer } from '@swarm/otel';
import { buildHelpdesk, type HelpdeskModels, task } from './helpdesk.js';

/** What `recordAndReplay` saw: both results, the cassette, and the replay's spans drawn as a tree. */
export interface Observed {
  recorded: Awaited<ReturnType<ReturnType<typeof buildHelpdesk>['run']>>;
  replayed: Observed['recorded'];
  cassette: string;
  tree: string[];
}

/**
 * Runs the helpdesk once with every model recorded to `<dir>/helpdesk.jsonl`, then again with
 * replay models answering from that cassette (no model needed), traced into OpenTelemetry spans.
 */
export async function recordAndReplay(models: HelpdeskModels, dir: string): Promise<Observed> {
  const cassette = join(dir, 'helpdesk.jsonl');
  const recording = eachAgent(models, (model) => recordModel(model, { file: cassette }));
  const recorded = await buildHelpdesk(recording).run(task);

  // One replay model per recorded model, going by its id, so the spans name the models recorded.
  const replays = new Map<string, ReplayModel>();
  const replaying = eachAgent(models, (model) => {
    const replay = replays.get(model.id) ?? replayModel({ file: cassette, model: model.id });
    replays.set(model.id, replay);
    return replay;
  });
  const { tracer, spans } = memoryTracer();
  const replayed = await buildHelpdesk(replaying).run(task, otelTracer({ tracer }));
  for (const replay of replays.values()) replay.assertComplete();
  return { recorded, replayed, cassette, tree: drawSpans(spans()) };
}

function eachAgent(models: HelpdeskModels, wrap: (model: Model) => Model): HelpdeskModels {
  return {
    triage: wrap(models.triage),
    taxExpert: wrap(models.taxExpert),
    chef: wrap(models.chef),
    billing: wrap(models.billing),
  };
}

function memoryTracer() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: [startOrder, new SimpleSpanProcessor(exporter)],
  });
  return { tracer: provider.getTracer('observe-replay'), spans: () => exporter.getFinishedSpans() };
}

// Children are drawn in the order they started (several may start within one millisecond).
const started = new Map<string, number>();
const startOrder: SpanProcessor = {
  onStart: (span) => void started.set(span.spanContext().spanId, started.size),
  onEnd: () => {},
  forceFlush: async () => {},
  shutdown: async () => {},
};

/** The spans as an indented tree: name, then the GenAI tokens of model calls and run totals. */
export function drawSpans(spans: readonly ReadableSpan[]): string[] {
  const ids = new Set(spans.map((s) => s.spanContext().spanId));
  const children = (parent: string | undefined) =>
    spans
      .filter((s) => {
        const p = s.parentSpanContext?.spanId;
        return (p !== undefined && ids.has(p) ? p : undefined) === parent;
      })
      .sort(
        (a, b) => (started.get(a.spanContext().spanId) ?? 0) - (started.get(b.spanContext().spanId) ?? 0),
      );
  const lines: string[] = [];
  const walk = (parent: string | undefined, depth: number) => {
    for (const span of children(parent)) {
      const input = span.attributes['gen_ai.usage.input_tokens'];
      const output = span.attributes['gen_ai.usage.output_tokens'];
      const tokens = input === undefined ? '' : `  [${input} in, ${output} out]`;
      lines.push(`${'  '.repeat(depth)}${span.name}${tokens}`);
      walk(span.spanContext().spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines;
}

/** The models of a run: the configured one for every agent, else the scripted ones. */
export function modelsOf(model: Model | undefined, scripted: () => HelpdeskModels): HelpdeskModels {
  return model ? { triage: model, taxExpert: model, chef: model, billing: model } : scripted();
}
