import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { Agent, type Model } from '@swarm/core';
import { reply, ScriptedModel, toolCall } from '@swarm/core/testing';
import { ForestSwarm, Tree, TreeAgent } from '@swarm/forest';
import { Team } from '@swarm/handoff';

// Helpers shared by this package's tests: a real SDK tracer with an in-memory exporter, the span
// tree drawn as text, and a helpdesk whose triage agent asks a forest of experts (a tool) and then
// hands off to billing.

// The order spans were started in: several may start within one millisecond.
const startOrder = new Map<string, number>();
const recordStarts: SpanProcessor = {
  onStart: (span) => void startOrder.set(span.spanContext().spanId, startOrder.size),
  onEnd: () => {},
  forceFlush: async () => {},
  shutdown: async () => {},
};

/** A tracer of the real SDK whose finished spans are kept in memory. */
export function memoryTracer() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: [recordStarts, new SimpleSpanProcessor(exporter)],
  });
  return { tracer: provider.getTracer('test'), spans: () => exporter.getFinishedSpans() };
}

/** The spans as an indented tree of names, children in the order they started. */
export function spanTree(spans: readonly ReadableSpan[]): string[] {
  const byParent = new Map<string | undefined, ReadableSpan[]>();
  const ids = new Set(spans.map((s) => s.spanContext().spanId));
  for (const span of spans) {
    const parent = span.parentSpanContext?.spanId;
    const key = parent !== undefined && ids.has(parent) ? parent : undefined;
    byParent.set(key, [...(byParent.get(key) ?? []), span]);
  }
  const lines: string[] = [];
  const walk = (parent: string | undefined, depth: number) => {
    const children = [...(byParent.get(parent) ?? [])].sort((a, b) => order(a) - order(b));
    for (const span of children) {
      lines.push(`${'  '.repeat(depth)}${span.name}`);
      walk(span.spanContext().spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines;
}

function order(span: ReadableSpan): number {
  return startOrder.get(span.spanContext().spanId) ?? Number.POSITIVE_INFINITY;
}

/** The scripted models of the helpdesk, one per agent. */
export function helpdeskModels() {
  return {
    triage: new ScriptedModel(
      [
        toolCall(
          'ask_experts',
          { task: 'How do I file the tax return of my corporation?' },
          { id: 'call_experts' },
        ),
        toolCall(
          'handoff',
          { target: 'billing', message: 'They also want a refund.' },
          { id: 'call_handoff' },
        ),
      ],
      { id: 'mock:triage-model', usage: { inputTokens: 30, outputTokens: 6, cachedTokens: 24 } },
    ),
    tax: new ScriptedModel([reply('File Form 1120 by the 15th day of the 4th month.')], {
      id: 'mock:tax-model',
      usage: { inputTokens: 20, outputTokens: 12, reasoningTokens: 9 },
    }),
    chef: new ScriptedModel([], { id: 'mock:chef-model' }),
    billing: new ScriptedModel([reply('Refunded, and the experts say: file Form 1120.')], {
      id: 'mock:billing-model',
      usage: { inputTokens: 50, outputTokens: 11, cachedTokens: 40 },
    }),
  };
}

/** A handoff team whose triage agent asks a forest of experts, as a tool, then hands off to billing. */
export function helpdesk(models: Record<'triage' | 'tax' | 'chef' | 'billing', Model>) {
  const experts = new ForestSwarm({
    name: 'Experts',
    trees: [
      new Tree({
        name: 'Finance',
        agents: [
          new TreeAgent({
            name: 'Tax Expert',
            systemPrompt: 'Corporate taxation, tax returns and tax filing for businesses.',
            model: models.tax,
          }),
        ],
      }),
      new Tree({
        name: 'Kitchen',
        agents: [
          new TreeAgent({
            name: 'Chef',
            systemPrompt: 'Italian cooking: pasta, risotto, recipes.',
            model: models.chef,
          }),
        ],
      }),
    ],
  });
  const triage = new Agent({
    name: 'triage',
    instructions: 'Ask the experts, then hand billing questions to billing.',
    model: models.triage,
    tools: [experts.asTool({ name: 'ask_experts', description: 'Routes a question to the right expert.' })],
  });
  const billing = new Agent({ name: 'billing', instructions: 'Handle refunds.', model: models.billing });
  return Team.swarm({ name: 'helpdesk', agents: { triage, billing }, entryAgent: 'triage' });
}
