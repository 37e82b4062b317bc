import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  type LoggingLevel,
  McpError,
  SetLevelRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import {
  type Budget,
  ConfigError,
  type ContentPart,
  describeZodError,
  errorMessage,
  isMember,
  Limiter,
  type Member,
  RunContext,
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
}

/** What the tool returns beside its text: the run's result, for programs that read it. */
const outputSchema = {
  type: 'object',
  properties: {
    output: { type: 'string' },
    llmCalls: { type: 'integer' },
    usage: { type: 'object' },
    interrupted: { type: 'boolean' },
    interruptionReason: { type: 'string' },
  },
  required: ['output', 'llmCalls', 'usage'],
} as const;

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
  const { name, description, input, toTask, budget, limiter, attachments } = checkServeOptions(
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
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name, description, inputSchema: toJsonSchema(input) as { type: 'object' }, outputSchema }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    if (request.params.name !== name) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `There is no tool named "${request.params.name}"; this server has "${name}".`,
      );
    }
    const parsed = input.safeParse(request.params.arguments ?? {});
    if (!parsed.success) {
      return {
        isError: true,
        content: [{ type: 'text', text: `Invalid arguments: ${describeZodError(parsed.error)}.` }],
      };
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
    try {
      const result = await runnable.run(toTask(parsed.data), {
        signal: extra.signal,
        onEvent,
        budget,
        limiter,
        ...(attachments !== undefined && attachments.length > 0 && { attachments: [...attachments] }),
      });
      const { interrupted, interruptionReason } = result as {
        interrupted?: boolean;
        interruptionReason?: string;
      };
      return {
        content: [{ type: 'text', text: result.output }],
        structuredContent: {
          output: result.output,
          llmCalls: result.llmCalls,
          usage: { ...result.usage },
          ...(interrupted === undefined ? {} : { interrupted }),
          ...(interruptionReason === undefined ? {} : { interruptionReason }),
        },
      };
    } catch (error) {
      // Cancelled by the client (or the server is closing): the SDK sends no answer to a cancelled request.
      if (extra.signal.aborted) throw error;
      return { isError: true, content: [{ type: 'text', text: errorMessage(error) }] };
    }
  });
  return server;
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
  };
}
