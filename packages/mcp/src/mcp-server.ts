import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ElicitResultSchema,
  ErrorCode,
  ListToolsRequestSchema,
  type LoggingLevel,
  McpError,
  SetLevelRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import {
  type Approvals,
  type Budget,
  ConfigError,
  type ContentPart,
  describeZodError,
  errorMessage,
  isMember,
  isPause,
  type Journal,
  Limiter,
  type Member,
  memoryJournal,
  type PendingApproval,
  RunContext,
  type RunPausedError,
  type SwarmEvent,
  toJsonSchema,
} from '@swarm/core';
import { z } from 'zod';
import { eventLevel, eventLine, logLevels } from './event-notifications.js';

const defaultInput = z.object({ task: z.string().describe('The task, written out in full.') });

/** How a topology or agent is offered as an MCP tool, and what each run of it is given. */
export interface McpServeOptions<P extends z.ZodObject = typeof defaultInput> {
  /** The tool's name (1 to 64 letters, digits, `_` or `-`); also the server's name in the handshake. */
  name: string;
  /** What the tool is for: the calling model reads it to decide when to call. */
  description: string;
  /** What the calling model fills in (default `{ task: string }`). */
  input?: P;
  /** Turns the validated arguments into the run's task (default: `task`, else the arguments as JSON). */
  toTask?: (args: z.output<P>) => string;
  /** The budget of every run, as `run(task, { budget })` takes it. */
  budget?: Budget;
  /** A limiter every run shares, as `run(task, { limiter })` takes it. */
  limiter?: Limiter;
  /** The server's version in the handshake (default `'1.0.0'`). */
  version?: string;
  /** Images and files that go with every run's task, as `run(task, { attachments })` takes them. */
  attachments?: readonly ContentPart[];
  /**
   * The schema of the run's `finalOutput`, announced in the tool's `outputSchema` (default: the
   * served Agent's own `outputType`, if it has one). The result's `structuredContent.finalOutput`
   * is the run's validated object.
   */
  outputType?: z.ZodObject;
}

/** The name of the tool that resumes a paused run with a person's decisions. */
export const resumeToolName = 'resume';

const resumeInput = z.object({
  runId: z.string().min(1).describe('The runId of the paused result.'),
  decisions: z
    .array(
      z.object({
        id: z.string().min(1).describe('The id of a pending call.'),
        approved: z.boolean(),
        reason: z.string().optional().describe('Why it was rejected: the model reads it.'),
      }),
    )
    .min(1)
    .describe('A decision for each pending call.'),
});

/** Paused runs a server keeps for `resume`, at most this many (the oldest is forgotten first). */
const maxPausedRuns = 100;

interface PausedRun {
  task: string;
  journal: Journal;
  approvals: Approvals;
  pending: PendingApproval[];
}

/**
 * What the tool returns beside its text: the run's result, for programs that read it; or, when the
 * run paused, `paused: true` with its `runId` and the calls that wait (`pending`).
 */
function outputSchemaOf(finalOutput: Record<string, unknown>) {
  return {
    type: 'object' as const,
    properties: {
      output: { type: 'string' },
      finalOutput,
      llmCalls: { type: 'integer' },
      usage: { type: 'object' },
      interrupted: { type: 'boolean' },
      interruptionReason: { type: 'string' },
      paused: { type: 'boolean' },
      runId: { type: 'string' },
      pending: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            id: { type: 'string' },
            agent: { type: 'string' },
            tool: { type: 'string' },
            arguments: { type: 'object' },
            path: { type: 'array', items: { type: 'string' } },
          },
          required: ['id', 'agent', 'tool', 'arguments'],
        },
      },
    },
    required: ['output', 'llmCalls', 'usage'],
  };
}

const toolName = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * An MCP server (the SDK's low-level `Server`, not yet connected) with one tool that runs
 * `runnable`: the answer is the tool's text, the run's events go to the client as progress
 * notifications (when it asked for progress) and log messages (at the level it set, `info` by
 * default), and a cancellation from the client aborts the run. Connect it to any transport; make
 * one per connection. `serveMcp` does this for stdio and streamable HTTP.
 */
export function createMcpServer<P extends z.ZodObject = typeof defaultInput>(
  runnable: Member,
  options: McpServeOptions<P>,
): Server {
  const { name, description, input, toTask, budget, limiter, attachments, outputType } = checkServeOptions(
    runnable,
    options,
  );
  const server = new Server(
    { name, version: options.version ?? '1.0.0' },
    { capabilities: { tools: {}, logging: {} } },
  );
  // This connection's log level, as the client set it (the SDK's own record of it is private).
  let level: LoggingLevel = 'info';
  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    level = request.params.level;
    return {};
  });
  const finalOutputType = outputType ?? (runnable as { outputType?: unknown }).outputType;
  const outputSchema = outputSchemaOf(
    finalOutputType instanceof z.ZodObject ? (toJsonSchema(finalOutputType) as Record<string, unknown>) : {},
  );
  // Runs that paused for a person, by runId, until `resume` answers them (this connection's only).
  const paused = new Map<string, PausedRun>();
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      { name, description, inputSchema: toJsonSchema(input) as { type: 'object' }, outputSchema },
      {
        name: resumeToolName,
        description: `Goes on with a run of "${name}" that paused for approval: give its runId and a decision for each pending call.`,
        inputSchema: toJsonSchema(resumeInput) as { type: 'object' },
        outputSchema,
      },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const called = request.params.name;
    if (called !== name && called !== resumeToolName) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `There is no tool named "${called}"; this server has "${name}" and "${resumeToolName}".`,
      );
    }
    let task: string;
    let runId: string;
    let journal: Journal;
    let approvals: Approvals = {};
    if (called === resumeToolName) {
      const parsed = resumeInput.safeParse(request.params.arguments ?? {});
      if (!parsed.success) return errorResult(`Invalid arguments: ${describeZodError(parsed.error)}.`);
      const run = paused.get(parsed.data.runId);
      if (run === undefined) {
        return errorResult(
          `No paused run has the runId ${JSON.stringify(parsed.data.runId)}${paused.size > 0 ? `; paused: ${[...paused.keys()].join(', ')}` : ''}.`,
        );
      }
      const known = new Set(run.pending.map((p) => p.id));
      const unknown = parsed.data.decisions.filter((d) => !known.has(d.id)).map((d) => d.id);
      if (unknown.length > 0) {
        return errorResult(
          `The run does not wait for ${unknown.join(', ')}; it waits for ${[...known].join(', ')}.`,
        );
      }
      paused.delete(parsed.data.runId);
      ({ task, journal } = run);
      runId = parsed.data.runId;
      approvals = { ...run.approvals, ...decisionsOf(parsed.data.decisions) };
    } else {
      const parsed = input.safeParse(request.params.arguments ?? {});
      if (!parsed.success) return errorResult(`Invalid arguments: ${describeZodError(parsed.error)}.`);
      task = toTask(parsed.data);
      runId = crypto.randomUUID();
      // Every call journals in memory, so a pause can be resumed without paying again for its calls.
      journal = memoryJournal();
    }
    const progressToken = extra._meta?.progressToken;
    let progress = 0;
    let listening = true;
    const send = (notification: Parameters<typeof extra.sendNotification>[0]) => {
      // A client that went away gets no more notifications; the run's own end reports what matters.
      extra.sendNotification(notification).catch(() => {
        listening = false;
      });
    };
    const onEvent = (event: SwarmEvent) => {
      if (!listening) return;
      if (progressToken !== undefined) {
        progress += 1;
        send({
          method: 'notifications/progress',
          params: { progressToken, progress, message: eventLine(event) },
        });
      }
      const eventSeverity = eventLevel(event);
      if (logLevels.indexOf(eventSeverity) >= logLevels.indexOf(level)) {
        send({
          method: 'notifications/message',
          params: { level: eventSeverity, logger: name, data: event },
        });
      }
    };
    for (;;) {
      try {
        const result = await runnable.run(task, {
          signal: extra.signal,
          onEvent,
          budget,
          limiter,
          journal,
          runId,
          ...(Object.keys(approvals).length > 0 && { approvals }),
          ...(attachments !== undefined && attachments.length > 0 && { attachments: [...attachments] }),
        });
        const { interrupted, interruptionReason, finalOutput } = result as {
          interrupted?: boolean;
          interruptionReason?: string;
          finalOutput?: unknown;
        };
        return {
          content: [{ type: 'text', text: result.output }],
          structuredContent: {
            output: result.output,
            ...(finalOutput === undefined ? {} : { finalOutput }),
            llmCalls: result.llmCalls,
            usage: { ...result.usage },
            ...(interrupted === undefined ? {} : { interrupted }),
            ...(interruptionReason === undefined ? {} : { interruptionReason }),
          },
        };
      } catch (error) {
        // Cancelled by the client (or the server is closing): the SDK sends no answer to a cancelled request.
        if (extra.signal.aborted) throw error;
        if (!isPause(error)) return errorResult(errorMessage(error));
        // A client that can ask its user is asked now, and the run goes on in this same call.
        if (server.getClientCapabilities()?.elicitation !== undefined) {
          const answers = await askClient(error.pending, extra);
          if (answers !== undefined) {
            approvals = { ...approvals, ...answers };
            continue;
          }
        }
        paused.set(runId, { task, journal, approvals, pending: error.pending });
        while (paused.size > maxPausedRuns) paused.delete(paused.keys().next().value as string);
        return pausedResult(runId, error);
      }
    }
  });
  return server;
}

function errorResult(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

function decisionsOf(decisions: z.output<typeof resumeInput>['decisions']): Approvals {
  const approvals: Approvals = {};
  for (const { id, approved, reason } of decisions) {
    approvals[id] = reason === undefined ? { approved } : { approved, message: reason };
  }
  return approvals;
}

/** A pause, as a result that is not an error: what waits, and how to go on. */
function pausedResult(runId: string, error: RunPausedError): CallToolResult {
  const pending = error.pending.map(({ id, agent, tool, arguments: args, path }) => ({
    id,
    agent,
    tool,
    arguments: args,
    path,
  }));
  const lines = pending.map(
    (p) => `- ${p.id}: ${p.tool} (agent ${p.agent}) with ${JSON.stringify(p.arguments)}`,
  );
  return {
    content: [
      {
        type: 'text',
        text: `The run paused: ${pending.length} tool call(s) wait for a person's approval.\n${lines.join('\n')}\nAsk the user, then call "${resumeToolName}" with runId "${runId}" and a decision ({ id, approved, reason? }) for each.`,
      },
    ],
    structuredContent: {
      output: '',
      llmCalls: error.llmCalls,
      usage: { ...error.usage },
      paused: true,
      runId,
      pending,
    },
  };
}

/**
 * Asks the client's user about each pending call (MCP elicitation, a form with `approve` and an
 * optional `reason`). Undefined when the user declines or cancels any of them: the run then stays
 * paused, for `resume`.
 */
async function askClient(
  pending: readonly PendingApproval[],
  extra: {
    sendRequest: (
      request: { method: 'elicitation/create'; params: Record<string, unknown> },
      schema: typeof ElicitResultSchema,
    ) => Promise<z.output<typeof ElicitResultSchema>>;
  },
): Promise<Approvals | undefined> {
  const approvals: Approvals = {};
  for (const call of pending) {
    let answer: z.output<typeof ElicitResultSchema>;
    try {
      answer = await extra.sendRequest(
        {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: `Approve the call of "${call.tool}" by agent "${call.agent}" with ${JSON.stringify(call.arguments)}?`,
            requestedSchema: {
              type: 'object',
              properties: {
                approve: { type: 'boolean', title: 'Approve', description: 'Let the call go ahead.' },
                reason: {
                  type: 'string',
                  title: 'Reason',
                  description: 'If rejected, why (the model reads it).',
                },
              },
              required: ['approve'],
            },
          },
        },
        ElicitResultSchema,
      );
    } catch {
      return undefined;
    }
    if (answer.action !== 'accept' || typeof answer.content?.approve !== 'boolean') return undefined;
    const reason = answer.content.reason;
    approvals[call.id] =
      answer.content.approve || typeof reason !== 'string' || reason === ''
        ? { approved: answer.content.approve }
        : { approved: false, message: reason };
  }
  return approvals;
}

/** Checks what `createMcpServer` and `serveMcp` are given; a mistake is a ConfigError naming the option. */
export function checkServeOptions<P extends z.ZodObject>(runnable: Member, options: McpServeOptions<P>) {
  if (!isMember(runnable)) throw new ConfigError('serveMcp: give an Agent or a Topology to serve.');
  if (typeof options !== 'object' || options === null) {
    throw new ConfigError('serveMcp: options must be an object with name and description.');
  }
  if (typeof options.name !== 'string' || !toolName.test(options.name)) {
    throw new ConfigError(
      `serveMcp: name must be 1 to 64 letters, digits, "_" or "-" (got ${JSON.stringify(options.name)}).`,
    );
  }
  if (typeof options.description !== 'string' || options.description.trim() === '') {
    throw new ConfigError('serveMcp: description must be a non-empty string: the calling model reads it.');
  }
  if (options.input !== undefined && !(options.input instanceof z.ZodObject)) {
    throw new ConfigError('serveMcp: input must be a z.object(...) schema.');
  }
  if (options.toTask !== undefined && typeof options.toTask !== 'function') {
    throw new ConfigError('serveMcp: toTask must be a function.');
  }
  if (options.name === resumeToolName) {
    throw new ConfigError(
      `serveMcp: name may not be "${resumeToolName}": that is the tool that resumes a paused run.`,
    );
  }
  if (options.outputType !== undefined && !(options.outputType instanceof z.ZodObject)) {
    throw new ConfigError('serveMcp: outputType must be a z.object(...) schema.');
  }
  if (options.attachments !== undefined && !Array.isArray(options.attachments)) {
    throw new ConfigError('serveMcp: attachments must be an array of content parts.');
  }
  if (options.limiter !== undefined && !(options.limiter instanceof Limiter)) {
    throw new ConfigError('serveMcp: limiter must be a Limiter from @swarm/core.');
  }
  // The budget is checked the way every run checks it, once, here, rather than at the first call.
  new RunContext({ budget: options.budget });
  const input = (options.input ?? defaultInput) as P;
  const toTask =
    options.toTask ??
    ((args: z.output<P>) => {
      const task = (args as { task?: unknown }).task;
      return typeof task === 'string' && Object.keys(args as object).length === 1
        ? task
        : JSON.stringify(args);
    });
  return {
    name: options.name,
    description: options.description,
    input,
    toTask,
    budget: options.budget,
    limiter: options.limiter,
    attachments: options.attachments,
    outputType: options.outputType,
  };
}
