// The page's server, on Node's own http module and loopback only: the page, its script (bundled by
// esbuild at start), and POST /api/run, which answers with the run as an AI SDK UI message stream.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { resumeFromMessages, toUIMessageStream } from '@swarm/ai-sdk';
import { errorMessage, isAbort, isPause, type Journal, memoryJournal, type Topology } from '@swarm/core';
import type { UIMessage } from 'ai';
import { pipeUIMessageStreamToResponse } from 'ai';
import { build } from 'esbuild';
import { pageHtml } from './page-html.js';

/** How a run the page asked for ended, as the server saw it. */
export type RunOutcome = 'done' | 'aborted' | 'failed' | 'paused';

/** A running chat server. */
export interface ChatServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /**
   * The token POST /api/run needs (`Authorization: Bearer <token>`): the page gets it in its HTML,
   * which only a request addressed to this machine receives.
   */
  readonly token: string;
  /** How each run ended, in the order they ended: a closed page or the Stop button aborts its run. */
  readonly outcomes: RunOutcome[];
  close(): Promise<void>;
}

let bundled: Promise<string> | undefined;

/** The page script for the browser, bundled once per process (esbuild, the AI SDK's client-side reader included). */
export function bundlePage(): Promise<string> {
  bundled ??= bundle();
  return bundled;
}

async function bundle(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./page.ts', import.meta.url))],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error('esbuild produced no page script.');
  return output.text;
}

/** Serves the chat page for `team` on 127.0.0.1 (`port` 0: a free one). */
export async function startChatServer(options: {
  team: Topology;
  port?: number;
  /** The token POST /api/run needs (default: a random one, given to the page in its HTML). */
  token?: string;
}): Promise<ChatServer> {
  const { team } = options;
  const script = await bundlePage();
  const outcomes: RunOutcome[] = [];
  const paused = new Map<string, PausedRun>();
  const token = options.token ?? randomBytes(24).toString('base64url');
  let allowedHosts = new Set<string>();

  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    // Another Host is a DNS rebinding page reading or calling this server as if it were its own.
    if (!allowedHosts.has(request.headers.host ?? '')) {
      refuse(response, 403, 'This server answers only requests addressed to this machine.');
      return;
    }
    if (request.method === 'GET' && path === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pageHtml(team.name, token));
      return;
    }
    if (request.method === 'GET' && path === '/page.js') {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script);
      return;
    }
    if (request.method === 'POST' && path === '/api/run') {
      const why = refusal(request, allowedHosts, token);
      if (why !== undefined) {
        refuse(response, why.status, why.message);
        return;
      }
      answerRun(team, request, response, outcomes, paused).catch((error: unknown) => {
        console.error(`error: ${errorMessage(error)}`);
        response.destroy();
      });
      return;
    }
    response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    outcomes,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/**
 * Why a POST /api/run is refused, if it is: from another page's origin (a browser always names it),
 * not JSON (a plain HTML form of any site can post text/plain without asking), or without the token.
 */
function refusal(
  request: IncomingMessage,
  allowedHosts: Set<string>,
  token: string,
): { status: number; message: string } | undefined {
  const origin = request.headers.origin;
  if (origin !== undefined && ![...allowedHosts].some((host) => origin === `http://${host}`)) {
    return { status: 403, message: `Requests from the origin ${origin} are not allowed.` };
  }
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    return { status: 415, message: 'The request body must be application/json.' };
  }
  const given = Buffer.from(/^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '');
  const expected = Buffer.from(token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { status: 401, message: 'Send the page\'s token as "Authorization: Bearer <token>".' };
  }
  return undefined;
}

function refuse(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: message }));
}

/** A run that paused for approval: what the page's answers resume it with. */
interface PausedRun {
  task: string;
  journal: Journal;
}

/**
 * Answers POST /api/run with the run as a UI message stream, or a 400 saying what is wrong. The
 * body is `{ task }` for a new run, or the page's messages (`{ messages }`, as useChat sends them)
 * answering a paused run's approval requests: `resumeFromMessages` reads the decisions, and the run
 * goes on from its journal.
 */
async function answerRun(
  team: Topology,
  request: IncomingMessage,
  response: ServerResponse,
  outcomes: RunOutcome[],
  paused: Map<string, PausedRun>,
): Promise<void> {
  let start: {
    task: string;
    journal: Journal;
    runId: string;
    approvals?: Record<string, { approved: boolean; message?: string }>;
  };
  try {
    start = readStart(await readBody(request), paused);
  } catch (error) {
    response
      .writeHead(400, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: errorMessage(error) }));
    return;
  }
  const { task, journal, runId, approvals } = start;
  // Given a function, the stream aborts the run when the page goes away or presses Stop.
  const stream = toUIMessageStream(
    (signal) => {
      const run = team.stream(task, { signal, journal, runId, ...(approvals && { approvals }) });
      run.result.then(
        () => {
          paused.delete(runId);
          outcomes.push('done');
        },
        (error: unknown) => {
          if (isPause(error)) {
            paused.set(runId, { task, journal });
            while (paused.size > 100) paused.delete(paused.keys().next().value as string);
          } else paused.delete(runId);
          outcomes.push(isPause(error) ? 'paused' : isAbort(error) ? 'aborted' : 'failed');
        },
      );
      return run;
    },
    { onError: errorMessage },
  );
  await pipeUIMessageStreamToResponse({ response, stream });
}

/** A new run of `{ task }`, or the paused run `{ messages }` answer. */
function readStart(
  body: unknown,
  paused: Map<string, PausedRun>,
): {
  task: string;
  journal: Journal;
  runId: string;
  approvals?: Record<string, { approved: boolean; message?: string }>;
} {
  const messages = (body as { messages?: unknown } | null)?.messages;
  if (messages !== undefined) {
    if (!Array.isArray(messages)) throw new Error('"messages" must be the chat\'s messages.');
    const resume = resumeFromMessages(messages as UIMessage[]);
    if (resume === undefined) throw new Error('The last assistant message is no paused run.');
    const run = paused.get(resume.runId);
    if (run === undefined) throw new Error(`No paused run has the id ${resume.runId}.`);
    paused.delete(resume.runId);
    return { task: run.task, journal: run.journal, runId: resume.runId, approvals: resume.approvals };
  }
  const task = (body as { task?: unknown } | null)?.task;
  if (typeof task !== 'string' || task.trim() === '') {
    throw new Error('The request body needs a non-empty "task" string.');
  }
  // Every run is journaled in memory, so a pause resumes without paying again for its calls.
  return { task: task.trim(), journal: memoryJournal(), runId: crypto.randomUUID() };
}

/** A POST /api/run body, parsed: at most 1 MiB of JSON. */
async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 1024 * 1024) throw new Error('The request body is larger than 1 MiB.');
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new Error('The request body is not JSON.');
  }
}
