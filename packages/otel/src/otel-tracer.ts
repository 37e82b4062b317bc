import {
  type Attributes,
  type Context,
  context,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { SwarmEvent } from '@swarm/core';
import { GenAI, genAiFinishReason, operations, providerAndModel } from './gen-ai.js';

/** Options of `otelTracer`. */
export interface OtelTracerOptions {
  /** Where spans go (default: the global provider's tracer named `@swarm/otel`). */
  tracer?: Tracer;
  /**
   * Also record what was said: the task and output of runs and agents, tool arguments and
   * results, and a model's reasoning (default false: traces often leave the machine, and
   * contents may be private).
   */
  recordContent?: boolean;
}

/** A run's events as OpenTelemetry spans: give `onEvent` to a run (or spread the tracer into its options). */
export interface OtelTracer {
  readonly onEvent: (event: SwarmEvent) => void;
}

interface OpenSpan {
  span: Span;
  ctx: Context;
  /** The run whose event opened the span. */
  runId: string;
  /** Removes the span from the index it is kept in. */
  forget: () => void;
  /** The agent span it was opened under (a model or tool call of that agent's turn). */
  agent?: OpenSpan;
}

/**
 * Turns a run's events into spans that follow the OpenTelemetry GenAI semantic conventions: one
 * span per run (nested runs under the tool call or run that started them), per agent turn
 * (`invoke_agent`), per model call (`chat`, with `gen_ai.*` model, usage and finish reasons) and
 * per tool call (`execute_tool`). Errors set the span's status and record an exception with the
 * SwarmError code; spans still open when their run ends are ended with it. Span times are the
 * events' times, so a saved trace can be turned into spans after the fact too.
 */
export function otelTracer(options: OtelTracerOptions = {}): OtelTracer {
  const tracer = options.tracer ?? trace.getTracer('@swarm/otel');
  const recordContent = options.recordContent ?? false;
  const runs = new Map<string, OpenSpan>();
  // What each nested run hangs under: its parent run, and the tool call that started it.
  const parents = new Map<string, { runId: string; toolCallId: string | undefined }>();
  // The session (a handoff Team's `sessionId`) each run belongs to: its spans' conversation id.
  const sessions = new Map<string, string>();
  const agents = new Map<string, OpenSpan[]>();
  const models = new Map<string, OpenSpan[]>();
  const tools = new Map<string, OpenSpan>();
  const open = new Set<OpenSpan>();

  const start = (
    name: string,
    event: SwarmEvent,
    parent: Context,
    attributes: Attributes,
    kind = SpanKind.INTERNAL,
  ): OpenSpan => {
    const span = tracer.startSpan(
      name,
      { kind, attributes: defined(attributes), startTime: timeOf(event) },
      parent,
    );
    const opened: OpenSpan = { span, ctx: trace.setSpan(parent, span), runId: event.runId, forget: () => {} };
    open.add(opened);
    return opened;
  };
  const end = (opened: OpenSpan, event: SwarmEvent) => {
    opened.forget();
    open.delete(opened);
    opened.span.end(timeOf(event));
  };

  // The context a span of `runId` hangs under when that run has no span of its own (an agent run
  // with no topology), or a nested run's span hangs under: the tool call that started it, else
  // the parent run, else whatever span is active where the run started.
  const contextOf = (runId: string): Context => runs.get(runId)?.ctx ?? nestedParent(runId);
  const nestedParent = (runId: string): Context => {
    const parent = parents.get(runId);
    if (!parent) return context.active();
    const tool =
      parent.toolCallId === undefined ? undefined : tools.get(key(parent.runId, parent.toolCallId));
    return tool?.ctx ?? contextOf(parent.runId);
  };
  const agentOf = (event: SwarmEvent): OpenSpan | undefined =>
    event.agent === undefined ? undefined : agents.get(key(event.runId, event.agent))?.at(-1);
  // A nested run (a forest asked as a tool) belongs to the conversation of the run that started it.
  const conversationOf = (runId: string): string | undefined => {
    for (let run: string | undefined = runId; run !== undefined; run = parents.get(run)?.runId) {
      const session = sessions.get(run);
      if (session !== undefined) return session;
    }
    return undefined;
  };

  const handlers: Record<string, (event: SwarmEvent) => void> = {
    'run.start'(event) {
      const topology = event.topology ?? (Array.isArray(event.path) ? String(event.path.at(-1)) : 'run');
      const session = text(event.sessionId);
      if (session !== undefined) sessions.set(event.runId, session);
      const opened = start(`run ${topology}`, event, nestedParent(event.runId), {
        [GenAI.conversationId]: conversationOf(event.runId),
        'swarm.run.id': event.runId,
        'swarm.topology': topology,
        'swarm.run.name': text(event.name),
        'swarm.parent_run.id': text(event.parentRunId),
        'swarm.path': Array.isArray(event.path) ? event.path.map(String) : undefined,
        ...(recordContent && { 'swarm.task': text(event.task) }),
      });
      opened.forget = () => runs.delete(event.runId);
      runs.set(event.runId, opened);
    },
    'run.end'(event) {
      const run = runs.get(event.runId);
      if (!run) return;
      run.span.setAttributes(
        defined({
          'swarm.llm_calls': number(event.llmCalls),
          ...usageAttributes(event.usage),
          'swarm.interrupted': event.interrupted === true ? true : undefined,
          'swarm.interruption_reason': text(event.interruptionReason),
          ...(recordContent && { 'swarm.output': text(event.output) }),
        }),
      );
      closeRun(event.runId, event);
    },
    'run.error'(event) {
      const run = runs.get(event.runId);
      if (!run) return;
      failed(run.span, event, recordContent);
      closeRun(event.runId, event);
    },
    'agent.start'(event) {
      const agent = String(event.agent);
      const opened = start(`${operations.agent} ${agent}`, event, contextOf(event.runId), {
        [GenAI.operationName]: operations.agent,
        [GenAI.agentName]: agent,
        [GenAI.conversationId]: conversationOf(event.runId),
        'swarm.run.id': event.runId,
      });
      push(agents, key(event.runId, agent), opened);
    },
    'agent.end'(event) {
      const opened = agentOf(event);
      if (!opened) return;
      closeCalls(opened, event);
      opened.span.setAttributes(
        defined({
          'swarm.agent.ended_by': text(event.endedBy),
          ...(recordContent && { 'swarm.agent.output': text(event.output) }),
        }),
      );
      end(opened, event);
    },
    'agent.error'(event) {
      const opened = agentOf(event);
      if (!opened) return;
      closeCalls(opened, event);
      failed(opened.span, event, recordContent);
      end(opened, event);
    },
    'model.request'(event) {
      const { provider, model } = providerAndModel(event.model);
      const agent = agentOf(event);
      const parent = agent?.ctx ?? contextOf(event.runId);
      const opened = start(
        `${operations.model} ${model}`,
        event,
        parent,
        {
          [GenAI.operationName]: operations.model,
          [GenAI.providerName]: provider,
          [GenAI.requestModel]: model,
          [GenAI.agentName]: text(event.agent),
          [GenAI.conversationId]: conversationOf(event.runId),
          'swarm.purpose': text(event.purpose),
          'swarm.call.id': text(event.callId),
          'swarm.request.messages': number(event.messages),
        },
        SpanKind.CLIENT,
      );
      opened.agent = agent;
      push(models, callKey(event), opened);
    },
    'model.response'(event) {
      const opened = models.get(callKey(event))?.[0];
      if (!opened) return;
      opened.span.setAttributes(
        defined({
          // The model that answered, as the provider reported it (behind a router or an alias it
          // differs from the one asked for); else the model the call was made with.
          [GenAI.responseModel]:
            text(event.responseModel) ??
            (typeof event.model === 'string' ? providerAndModel(event.model).model : undefined),
          [GenAI.responseId]: text(event.responseId),
          // Reasoning is content: only with content capture on.
          ...(recordContent && { 'swarm.response.reasoning': reasoningText(event.reasoning) }),
          ...usageAttributes(event.usage),
          [GenAI.finishReasons]: [genAiFinishReason(event.finishReason)],
          'swarm.response.tool_calls': Array.isArray(event.toolCalls)
            ? event.toolCalls.map(String)
            : undefined,
        }),
      );
      end(opened, event);
    },
    'model.error'(event) {
      const opened = models.get(callKey(event))?.[0];
      if (!opened) return;
      failed(opened.span, event, recordContent);
      end(opened, event);
    },
    'tool.call'(event) {
      const opened = startTool(event);
      const id = key(event.runId, String(event.toolCallId));
      opened.forget = () => tools.delete(id);
      tools.set(id, opened);
    },
    'tool.result'(event) {
      // A call answered as not executed has no tool.call: its span starts and ends here.
      const opened = tools.get(key(event.runId, String(event.toolCallId))) ?? startTool(event);
      opened.span.setAttributes(
        defined({
          'swarm.tool.skipped': event.skipped === true ? true : undefined,
          ...(recordContent && { [GenAI.toolCallResult]: text(event.result) }),
        }),
      );
      if (event.isError === true) {
        opened.span.setAttribute(GenAI.errorType, 'tool_error');
        opened.span.setStatus({
          code: SpanStatusCode.ERROR,
          message: recordContent
            ? text(event.result)
            : 'The tool call failed; its result went back to the model.',
        });
      }
      end(opened, event);
    },
  };

  function startTool(event: SwarmEvent): OpenSpan {
    const tool = String(event.tool);
    const agent = agentOf(event);
    const opened = start(`${operations.tool} ${tool}`, event, agent?.ctx ?? contextOf(event.runId), {
      [GenAI.operationName]: operations.tool,
      [GenAI.toolName]: tool,
      [GenAI.toolCallId]: text(event.toolCallId),
      [GenAI.agentName]: text(event.agent),
      [GenAI.conversationId]: conversationOf(event.runId),
      ...(recordContent && { [GenAI.toolCallArguments]: json(event.arguments) }),
    });
    opened.agent = agent;
    return opened;
  }

  // Ends the model and tool spans an agent's turn left open (a bare Agent aborted while a tool
  // runs has no run span to close them): every span ends, whatever ends the run.
  function closeCalls(agent: OpenSpan, event: SwarmEvent): void {
    for (const opened of [...open].reverse()) {
      if (opened.agent !== agent) continue;
      opened.span.setAttribute('swarm.unfinished', true);
      opened.span.setStatus({
        code: SpanStatusCode.ERROR,
        message: `Still open when agent ${event.agent} ended.`,
      });
      end(opened, event);
    }
  }

  // Ends a run's span, and before it every span its events or its nested runs' events left open
  // (a tool interrupted by an abort, say): a trace that ends, ends whole.
  function closeRun(runId: string, event: SwarmEvent): void {
    for (const opened of [...open].reverse()) {
      if (opened === runs.get(runId) || !within(opened.runId, runId)) continue;
      opened.span.setAttribute('swarm.unfinished', true);
      opened.span.setStatus({ code: SpanStatusCode.ERROR, message: `Still open when run ${runId} ended.` });
      end(opened, event);
    }
    end(runs.get(runId)!, event);
    for (const run of sessions.keys()) if (within(run, runId)) sessions.delete(run);
    for (const [child, parent] of parents) if (within(parent.runId, runId)) parents.delete(child);
  }

  // Whether `runId` is `ancestor` or nested in it.
  function within(runId: string, ancestor: string): boolean {
    for (let run: string | undefined = runId; run !== undefined; run = parents.get(run)?.runId) {
      if (run === ancestor) return true;
    }
    return false;
  }

  function push(index: Map<string, OpenSpan[]>, id: string, opened: OpenSpan): void {
    const list = index.get(id) ?? [];
    list.push(opened);
    index.set(id, list);
    opened.forget = () => {
      const at = list.indexOf(opened);
      if (at !== -1) list.splice(at, 1);
      if (list.length === 0) index.delete(id);
    };
  }

  return {
    onEvent(event: SwarmEvent): void {
      if (typeof event.parentRunId === 'string' && !parents.has(event.runId)) {
        parents.set(event.runId, { runId: event.parentRunId, toolCallId: text(event.parentToolCallId) });
      }
      const handle = Object.hasOwn(handlers, event.type) ? handlers[event.type] : undefined;
      if (handle) {
        handle(event);
        return;
      }
      // Topology events (handoffs, routes, votes) mark the run's span, named by type, without contents.
      const run = runs.get(event.runId);
      run?.span.addEvent(event.type, defined({ 'swarm.agent': text(event.agent) }), timeOf(event));
    },
  };
}

// Records an error on a span the conventions' way: status ERROR, an exception event, `error.type`.
// Without `recordContent` the message is left out: error messages quote run text (a NoRouteError
// its task, a tool error its arguments), so only the code says what failed.
function failed(span: Span, event: SwarmEvent, recordContent: boolean): void {
  const code = text(event.code);
  const message = recordContent
    ? (text(event.error) ?? 'failed')
    : `${code ?? 'Error'} (message not recorded: recordContent is off)`;
  span.setAttributes(defined({ [GenAI.errorType]: code ?? '_OTHER', 'swarm.error.code': code }));
  span.recordException({ name: code ?? 'Error', message }, timeOf(event));
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

// A usage object's token counts under the conventions' names; a count that is not a number is left out.
function usageAttributes(usage: unknown): Record<string, number | undefined> {
  const u = (usage ?? {}) as Record<string, unknown>;
  return {
    [GenAI.inputTokens]: number(u.inputTokens),
    [GenAI.outputTokens]: number(u.outputTokens),
    [GenAI.cacheReadInputTokens]: number(u.cachedTokens),
    [GenAI.reasoningOutputTokens]: number(u.reasoningTokens),
  };
}

function key(runId: string, id: string): string {
  return `${runId}\u0000${id}`;
}

// A model call's key: its callId; without one (an older core), its run, agent and purpose, first in first out.
function callKey(event: SwarmEvent): string {
  return typeof event.callId === 'string'
    ? event.callId
    : [event.runId, event.agent ?? '', event.purpose ?? ''].join('\u0000');
}

function timeOf(event: SwarmEvent): Date | undefined {
  const at = new Date(event.at);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/** A model's reasoning as an event may carry it: its text, or a `Reasoning` object. */
function reasoningText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  const inner = (value as { text?: unknown } | null | undefined)?.text;
  return typeof inner === 'string' ? inner : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function number(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function json(value: unknown): string | undefined {
  return value === undefined ? undefined : JSON.stringify(value);
}

function defined(attributes: Record<string, Attributes[string] | undefined>): Attributes {
  return Object.fromEntries(Object.entries(attributes).filter(([, v]) => v !== undefined)) as Attributes;
}
