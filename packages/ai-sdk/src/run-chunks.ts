import type { SwarmEvent } from '@swarm/core';
import type { SwarmPartOrigin, SwarmResultData, SwarmUIMessageChunk } from './ui-data-types.js';

/** What a finished run's result gives the `data-swarm-result` part (any topology's or agent's result fits). */
export interface RunResultLike {
  output: string;
  finalOutput?: unknown;
  llmCalls?: number;
  usage?: SwarmResultData['usage'];
  interrupted?: boolean;
  interruptionReason?: string;
}

/**
 * Turns a run's events, in order, into UI message chunks: text parts for `model.delta` (one per
 * agent's model call), dynamic tool parts for `tool.call` / `tool.result`, and data parts for runs
 * and agent turns. Keeps what must stay open between events (text parts, tool call ids).
 */
export class RunChunks {
  readonly #errorText: (event: SwarmEvent) => string;
  readonly #toolErrorText: (event: SwarmEvent) => string;
  #textCount = 0;
  // Open text parts by (run, agent, model call): two calls of one agent may stream at once.
  readonly #openText = new Map<string, string>();
  // Agent turns by (run, agent): the id of the current turn's part, and how many turns there were.
  readonly #agentTurns = new Map<string, { id: string; count: number; open: boolean }>();
  // UI tool call ids by (run, agent, call id), and by (run, call id) for nested runs' parents: ids
  // from different models (or scripted ones) may repeat within a message, UI ids may not.
  readonly #toolIds = new Map<string, string>();
  readonly #toolIdsByRun = new Map<string, string>();
  readonly #usedToolIds = new Set<string>();
  // Runs whose part says they paused: a lone agent's run has no run part until it pauses.
  readonly #pausedRuns = new Set<string>();
  // The outermost run (the first event's), and whether it sent run events of its own.
  #root: { runId: string; path: string[]; hasRunPart: boolean } | undefined;

  /**
   * `errorText` says what a failed run or agent part shows of the event's error: by default only
   * its code, as the stream's `error` chunk does, so no part carries more than the client may see.
   * `toolErrorText` says what a failed tool call's `tool-output-error` part shows of its
   * `tool.result` (whose text is the tool's own error message): by default `failed (TOOL)`.
   */
  constructor(
    options: {
      errorText?: (event: SwarmEvent) => string;
      toolErrorText?: (event: SwarmEvent) => string;
    } = {},
  ) {
    this.#errorText = options.errorText ?? defaultEventErrorText;
    this.#toolErrorText = options.toolErrorText ?? defaultToolErrorText;
  }

  /** The chunks one event becomes (none for events the UI has no part for). */
  push(event: SwarmEvent): SwarmUIMessageChunk[] {
    const agent = typeof event.agent === 'string' ? event.agent : undefined;
    this.#root ??= { runId: event.runId, path: pathOf(event), hasRunPart: false };
    if (event.type === 'run.start' && event.runId === this.#root.runId) this.#root.hasRunPart = true;
    switch (event.type) {
      case 'run.start':
        return [this.#run(event, { status: 'running' })];
      case 'run.end':
        return [this.#run(event, { status: 'done', output: stringOf(event.output) })];
      case 'run.error':
        return [
          ...this.#closeRun(event.runId),
          this.#run(event, { status: 'failed', error: this.#errorText(event) }),
        ];
      case 'run.paused':
        this.#pausedRuns.add(event.runId);
        return [
          ...this.#closeRun(event.runId),
          this.#run(event, { status: 'paused', pending: pendingIds(event.pending) }),
        ];
      case 'agent.paused':
        return agent === undefined
          ? []
          : [...this.#endText(event.runId, agent), this.#agent(event, agent, 'paused')];
      case 'approval.pending':
        return this.#approval(event, agent);
      case 'agent.start':
        return agent === undefined ? [] : [this.#agent(event, agent, 'running')];
      case 'agent.end':
        return agent === undefined
          ? []
          : [...this.#endText(event.runId, agent), this.#agent(event, agent, 'done')];
      case 'agent.error':
        return agent === undefined
          ? []
          : [...this.#endText(event.runId, agent), this.#agent(event, agent, 'failed')];
      case 'model.delta':
        return this.#delta(event, agent);
      case 'model.response':
      case 'model.error':
      // A restarted call streams its answer again in a text part of its own.
      case 'model.restart':
        return this.#endText(event.runId, agent, stringOf(event.callId) ?? '');
      case 'tool.call':
        return this.#toolCall(event, agent);
      case 'tool.result':
        return this.#toolResult(event, agent);
      default:
        return [];
    }
  }

  /** Ends every text part still open (the run ended or failed in the middle of a model call). */
  closeAll(): SwarmUIMessageChunk[] {
    const chunks: SwarmUIMessageChunk[] = [];
    for (const id of this.#openText.values()) chunks.push({ type: 'text-end', id });
    this.#openText.clear();
    return chunks;
  }

  /**
   * The outermost run's `paused` part, when no `run.paused` event sent it (a lone agent's run has
   * no run events): what `resumeFromMessages` reads the runId and the waiting calls from.
   */
  paused(pause: {
    runId: string;
    pending: readonly { id: string; path?: readonly string[] }[];
  }): SwarmUIMessageChunk[] {
    if (this.#pausedRuns.has(pause.runId)) return [];
    this.#pausedRuns.add(pause.runId);
    return [
      {
        type: 'data-swarm-run',
        id: pause.runId,
        data: {
          runId: pause.runId,
          path: [...(pause.pending[0]?.path?.slice(0, 1) ?? ['run'])],
          status: 'paused',
          pending: pause.pending.map((p) => p.id),
        },
      },
    ];
  }

  /**
   * For a lone agent's run that paused before (it is resumed: some calls replayed) or in this
   * stream, its run part marked `done`: the `paused` part it had is no longer what the message says.
   */
  finished(result: RunResultLike & { replayedCalls?: number }): SwarmUIMessageChunk[] {
    const root = this.#root;
    if (root === undefined || root.hasRunPart) return [];
    if (
      !this.#pausedRuns.has(root.runId) &&
      !(result.replayedCalls !== undefined && result.replayedCalls > 0)
    ) {
      return [];
    }
    return [
      {
        type: 'data-swarm-run',
        id: root.runId,
        data: { runId: root.runId, path: root.path, status: 'done', output: result.output },
      },
    ];
  }

  /** The `data-swarm-result` part of a finished run. */
  result(result: RunResultLike): SwarmUIMessageChunk {
    const data: SwarmResultData = { output: result.output };
    if (result.finalOutput !== undefined) data.finalOutput = result.finalOutput;
    if (result.llmCalls !== undefined) data.llmCalls = result.llmCalls;
    if (result.usage !== undefined) {
      const { inputTokens, outputTokens, cachedTokens, reasoningTokens, totalTokens } = result.usage;
      data.usage = { inputTokens, outputTokens, cachedTokens, reasoningTokens, totalTokens };
    }
    if (result.interrupted) {
      data.interrupted = true;
      if (result.interruptionReason !== undefined) data.interruptionReason = result.interruptionReason;
    }
    return { type: 'data-swarm-result', id: 'result', data };
  }

  #run(
    event: SwarmEvent,
    state: {
      status: 'running' | 'done' | 'failed' | 'paused';
      output?: string | undefined;
      error?: string | undefined;
      pending?: string[] | undefined;
    },
  ): SwarmUIMessageChunk {
    const data: Extract<SwarmUIMessageChunk, { type: 'data-swarm-run' }>['data'] = {
      runId: event.runId,
      path: pathOf(event),
      status: state.status,
    };
    Object.assign(data, this.#nesting(event));
    if (event.topology !== undefined) data.topology = event.topology;
    if (state.output !== undefined) data.output = state.output;
    if (state.error !== undefined) data.error = state.error;
    if (state.pending !== undefined) data.pending = state.pending;
    return { type: 'data-swarm-run', id: event.runId, data };
  }

  // A call that waits for a person: the AI SDK's own approval request on its tool part, whose
  // approval id is the pending call's id (the key of the decisions that resume the run).
  #approval(event: SwarmEvent, agent: string | undefined): SwarmUIMessageChunk[] {
    const callId = stringOf(event.toolCallId);
    const approvalId = stringOf((event.approval as { id?: unknown } | undefined)?.id);
    if (callId === undefined || approvalId === undefined) return [];
    const uiId = this.#toolIds.get(`${event.runId}\0${agent ?? ''}\0${callId}`);
    if (uiId === undefined) return [];
    return [{ type: 'tool-approval-request', approvalId, toolCallId: uiId }];
  }

  #agent(
    event: SwarmEvent,
    agent: string,
    status: 'running' | 'done' | 'failed' | 'paused',
  ): SwarmUIMessageChunk {
    const key = `${event.runId}\0${agent}`;
    let turn = this.#agentTurns.get(key);
    if (status === 'running' || turn === undefined || !turn.open) {
      const count = (turn?.count ?? 0) + 1;
      turn = { id: `${event.runId}:${agent}:${count}`, count, open: true };
      this.#agentTurns.set(key, turn);
    }
    if (status !== 'running') turn.open = false;
    const data: Extract<SwarmUIMessageChunk, { type: 'data-swarm-agent' }>['data'] = {
      agent,
      runId: event.runId,
      path: pathOf(event),
      status,
      ...this.#nesting(event),
    };
    if (status === 'failed') data.error = this.#errorText(event);
    return { type: 'data-swarm-agent', id: turn.id, data };
  }

  // Where a nested run hangs: its parent run, and the parent's tool call (as its UI id) that started it.
  #nesting(event: SwarmEvent): { parentRunId?: string; parentToolCallId?: string } {
    const parentRunId = stringOf(event.parentRunId);
    if (parentRunId === undefined) return {};
    const callId = stringOf(event.parentToolCallId);
    if (callId === undefined) return { parentRunId };
    return { parentRunId, parentToolCallId: this.#toolIdsByRun.get(`${parentRunId}\0${callId}`) ?? callId };
  }

  #delta(event: SwarmEvent, agent: string | undefined): SwarmUIMessageChunk[] {
    const delta = event.delta;
    if (typeof delta !== 'string' || delta === '') return [];
    const key = `${event.runId}\0${agent ?? ''}\0${stringOf(event.callId) ?? ''}`;
    let id = this.#openText.get(key);
    const chunks: SwarmUIMessageChunk[] = [];
    if (id === undefined) {
      id = `text-${++this.#textCount}`;
      this.#openText.set(key, id);
      chunks.push({ type: 'text-start', id, providerMetadata: { swarm: origin(event, agent) } });
    }
    chunks.push({ type: 'text-delta', id, delta });
    return chunks;
  }

  // Ends the text part of one model call of the agent, or (no callId) every one it has open.
  #endText(runId: string, agent: string | undefined, callId?: string): SwarmUIMessageChunk[] {
    const prefix = `${runId}\0${agent ?? ''}\0`;
    if (callId !== undefined) {
      const id = this.#openText.get(prefix + callId);
      if (id === undefined) return [];
      this.#openText.delete(prefix + callId);
      return [{ type: 'text-end', id }];
    }
    const chunks: SwarmUIMessageChunk[] = [];
    for (const [key, id] of this.#openText) {
      if (key.startsWith(prefix)) {
        chunks.push({ type: 'text-end', id });
        this.#openText.delete(key);
      }
    }
    return chunks;
  }

  // A failed run ends the text parts its agents left open.
  #closeRun(runId: string): SwarmUIMessageChunk[] {
    const chunks: SwarmUIMessageChunk[] = [];
    for (const [key, id] of this.#openText) {
      if (key.startsWith(`${runId}\0`)) {
        chunks.push({ type: 'text-end', id });
        this.#openText.delete(key);
      }
    }
    return chunks;
  }

  #toolCall(event: SwarmEvent, agent: string | undefined): SwarmUIMessageChunk[] {
    const callId = stringOf(event.toolCallId);
    const toolName = stringOf(event.tool);
    if (callId === undefined || toolName === undefined) return [];
    let id = callId;
    for (let n = 2; this.#usedToolIds.has(id); n++) id = `${callId}~${n}`;
    this.#usedToolIds.add(id);
    this.#toolIds.set(`${event.runId}\0${agent ?? ''}\0${callId}`, id);
    this.#toolIdsByRun.set(`${event.runId}\0${callId}`, id);
    // The model's text before its tool calls is over: the call comes after it in the message.
    return [
      ...this.#endText(event.runId, agent),
      {
        type: 'tool-input-available',
        toolCallId: id,
        toolName,
        input: event.arguments ?? {},
        dynamic: true,
        toolMetadata: { ...origin(event, agent), toolCallId: callId },
      },
    ];
  }

  #toolResult(event: SwarmEvent, agent: string | undefined): SwarmUIMessageChunk[] {
    const callId = stringOf(event.toolCallId);
    if (callId === undefined) return [];
    const result = stringOf(event.result) ?? '';
    const id = this.#toolIds.get(`${event.runId}\0${agent ?? ''}\0${callId}`);
    // A call answered as not executed (it came after a run-ending call) had no tool.call event.
    const opened = id === undefined ? this.#toolCall({ ...event, arguments: {} }, agent) : [];
    const uiId = id ?? this.#toolIds.get(`${event.runId}\0${agent ?? ''}\0${callId}`);
    if (uiId === undefined) return opened;
    return [
      ...opened,
      event.isError === true
        ? {
            type: 'tool-output-error',
            toolCallId: uiId,
            errorText: this.#toolErrorText(event),
            dynamic: true,
          }
        : { type: 'tool-output-available', toolCallId: uiId, output: result, dynamic: true },
    ];
  }
}

// The run's place in the tree: the stamped path of a nested run, else the root's own name.
function pathOf(event: SwarmEvent): string[] {
  if (Array.isArray(event.path)) return event.path.map(String);
  const name = event.topology ?? (typeof event.agent === 'string' ? event.agent : undefined) ?? 'run';
  return [name];
}

function origin(event: SwarmEvent, agent: string | undefined): SwarmPartOrigin {
  const from: SwarmPartOrigin = { runId: event.runId, path: pathOf(event) };
  if (agent !== undefined) from.agent = agent;
  return from;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function defaultEventErrorText(event: SwarmEvent): string {
  const code = stringOf(event.code);
  return code === undefined ? 'failed' : `failed (${code})`;
}

// A tool's error text is what the model reads (the thrown message, a rejection's reason): the
// client sees only that the call failed unless onError lets the text through.
function defaultToolErrorText(): string {
  return 'failed (TOOL)';
}

function pendingIds(pending: unknown): string[] {
  if (!Array.isArray(pending)) return [];
  return pending.flatMap((p) => {
    const id = (p as { id?: unknown } | null)?.id;
    return typeof id === 'string' ? [id] : [];
  });
}
