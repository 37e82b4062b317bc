import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import {
  type Approvals,
  ConfigError,
  fileJournal,
  type JournalEntry,
  type SwarmEvent,
  validateRunId,
} from '@swarm/core';
import { studioPage } from './page.js';
import { listRuns, type RunActivity, type RunDetail, readRun, runIdsOf } from './runs.js';
import { type JournalTail, Tails } from './tail.js';

/** A journaled run the studio asks its host to go on with. */
export interface RunRef {
  /** Its journal folder. */
  journal: string;
  id: string;
}

/**
 * Goes on with a journaled run in this process: its finished calls replay from the journal, it is
 * live from there. The `swarm studio` command passes one that rebuilds the run from its record
 * the way `swarm resume` does. Resolves when the run ends or pauses again.
 */
export type ResumeRun = (
  run: RunRef,
  approvals: Approvals,
  /** Give it to the run as `RunOptions.onEvent`: the studio keeps the attempt's events for `report`. */
  onEvent: (event: SwarmEvent) => void,
) => Promise<void>;

/**
 * Draws a run from the events of its last attempt in this process, as a self-contained HTML page
 * (no script: it is shown in a sandboxed frame). The `swarm studio` command passes its HTML report.
 */
export type DrawRun = (run: { id: string; task: string; events: readonly SwarmEvent[] }) => string;

/** Options of {@link startStudio}. */
export interface StudioOptions {
  /** The journal folders whose runs it shows (each a `swarm run --journal` folder). */
  journals: readonly string[];
  /** Port on the host; 0 (the default) takes a free one. */
  port?: number;
  /** Only a loopback address: `127.0.0.1` (the default) or `localhost`. */
  host?: string;
  /** The token every request carries (else a random one). */
  token?: string;
  /** Resumes a run (approvals, forks); without it those requests answer 501. */
  resume?: ResumeRun;
  /**
   * Draws a run this process executed from its events (the topology's own views: the tree of
   * thoughts, the handoff path, …), shown on its page and at `GET /api/runs/:id/report`.
   */
  report?: DrawRun;
  /**
   * A run no process of the studio executes counts as `running` while its journal changed less than
   * this long ago (ms): another process writes it. 10 000 (10 s) unless given.
   */
  liveWindowMs?: number;
  /** How often a watched journal is read again for what was appended (ms); 500 unless given. */
  pollMs?: number;
}

/** A running studio. */
export interface Studio {
  /** The page's address, token included. */
  url: string;
  port: number;
  token: string;
  /** Resolves when every run the studio started has ended or paused (tests wait on it). */
  idle(): Promise<void>;
  /**
   * Shows `run` as running while `work` is pending (a run this process executes, such as
   * `swarm run --studio`'s); when `work` rejects, the run shows as failed with its error.
   */
  track(run: RunRef, work: Promise<unknown>): void;
  /**
   * A listener for the events of an attempt at `run` in this process (pass it as
   * `RunOptions.onEvent`): the studio keeps them, the last attempt's only, for `report`.
   */
  events(run: RunRef): (event: SwarmEvent) => void;
  close(): Promise<void>;
}

const loopbackHosts = new Set(['127.0.0.1', 'localhost']);
/** Most events kept of one attempt at a run (the rest are not drawn). */
const maxEvents = 100_000;

/**
 * Starts swarm studio: the page and its JSON API (`/api/runs`, `/api/runs/:id`,
 * `/api/runs/:id/events` as server-sent events, `/api/runs/:id/report`, `POST /api/runs/:id/approvals`,
 * `POST /api/runs/:id/fork`) on a loopback address. Every request must name this host and port in
 * `Host` (no DNS rebinding), carry an `Origin` of the same address or none, and carry the token
 * (`?token=` or `Authorization: Bearer`): anything else is 403 or 401.
 */
export async function startStudio(options: StudioOptions): Promise<Studio> {
  const host = options.host ?? '127.0.0.1';
  if (!loopbackHosts.has(host)) {
    throw new ConfigError(`startStudio: host must be 127.0.0.1 or localhost (got ${JSON.stringify(host)}).`);
  }
  if (!Array.isArray(options.journals) || options.journals.length === 0) {
    throw new ConfigError('startStudio: journals must name at least one journal folder.');
  }
  for (const name of ['liveWindowMs', 'pollMs'] as const) {
    const value = options[name];
    if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value > 0)) {
      throw new ConfigError(
        `startStudio: ${name} must be a positive number of milliseconds (got ${JSON.stringify(value)}).`,
      );
    }
  }
  const journals = options.journals.map((dir) => resolve(dir));
  const token = options.token ?? randomBytes(16).toString('hex');
  const active = new Set<string>();
  const failures = new Map<string, { reason: string; at: number }>();
  const running = new Set<Promise<void>>();
  // The events of each run's last attempt in this process (an attempt replays the earlier ones').
  const traces = new Map<string, SwarmEvent[]>();
  const keyOf = (run: RunRef) => `${resolve(run.journal)}\u0000${run.id}`;
  const events = (run: RunRef) => {
    const trace: SwarmEvent[] = [];
    traces.set(keyOf(run), trace);
    return (event: SwarmEvent) => {
      if (trace.length < maxEvents) trace.push(event);
    };
  };
  const tails = new Tails(options.pollMs ?? 500);
  const activity: RunActivity = {
    active,
    failures,
    liveWindowMs: options.liveWindowMs ?? 10_000,
    now: () => Date.now(),
  };
  let port = 0;

  const findRun = (id: string): string | undefined => {
    try {
      validateRunId(id);
    } catch {
      return undefined;
    }
    return journals.find((dir) => runIdsOf(dir).includes(id));
  };

  const track = (run: RunRef, work: Promise<unknown>, warn = false) => {
    const key = keyOf(run);
    active.add(key);
    failures.delete(key);
    const done = work
      .then(
        () => undefined,
        (error: unknown) => {
          const message = error instanceof Error ? error.message : String(error);
          failures.set(key, { reason: `failed in this studio: ${message}`, at: Date.now() });
          if (warn) process.emitWarning(`swarm studio: run ${run.id}: ${message}`);
        },
      )
      .finally(() => {
        active.delete(key);
        running.delete(done);
      });
    running.add(done);
  };

  const start = (run: RunRef, approvals: Approvals) => {
    const resume = options.resume;
    if (!resume) return;
    const onEvent = events(run);
    // A run the studio resumes has no terminal of its own: its failure is said here too.
    track(
      run,
      Promise.resolve().then(() => resume(run, approvals, onEvent)),
      true,
    );
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const allowed = [`127.0.0.1:${port}`, `localhost:${port}`];
    if (!allowed.includes(req.headers.host ?? '')) return send(res, 403, { error: 'forbidden host' });
    const origin = req.headers.origin;
    if (origin !== undefined && !allowed.some((a) => origin === `http://${a}`)) {
      return send(res, 403, { error: 'forbidden origin' });
    }
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    const given = url.searchParams.get('token') ?? /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!given || !sameToken(given, token)) return send(res, 401, { error: 'missing or wrong token' });
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');

    if (req.method === 'GET' && url.pathname === '/') {
      res.writeHead(200, {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy':
          "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; frame-src 'self'",
      });
      return res.end(studioPage());
    }
    if (req.method === 'GET' && url.pathname === '/api/runs')
      return send(res, 200, await listRuns(journals, tails, activity));
    const match = /^\/api\/runs\/([^/]+)(\/events|\/report|\/approvals|\/fork)?$/.exec(url.pathname);
    if (!match) return send(res, 404, { error: 'not found' });
    const id = decodeURIComponent(match[1] ?? '');
    const dir = findRun(id);
    if (!dir) return send(res, 404, { error: `no run ${id}` });
    const action = match[2];
    const key = `${dir}\u0000${id}`;
    // `views`: the events of its last attempt in this process, which `report` draws.
    const read = async () => ({
      ...(await readRun(dir, id, tails, activity)),
      views: options.report ? (traces.get(key)?.length ?? 0) : 0,
    });
    if (req.method === 'GET' && action === undefined) return send(res, 200, await read());
    if (req.method === 'GET' && action === '/report') {
      const trace = traces.get(key);
      if (!options.report || !trace) {
        return send(res, 404, { error: `run ${id} has no events in this studio (it did not run here)` });
      }
      const run = await read();
      res.writeHead(200, {
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'no-store',
        // Drawn in a frame of the page only, with no script and an origin of its own.
        'Content-Security-Policy':
          "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'self'; sandbox",
      });
      return res.end(options.report({ id, task: run.task, events: trace }));
    }
    if (req.method === 'GET' && action === '/events')
      return streamEvents(req, res, tails.of(dir, id), read, options.pollMs ?? 500);
    if (req.method !== 'POST' || action === undefined) return send(res, 405, { error: 'method not allowed' });
    if (!options.resume) return send(res, 501, { error: 'this studio cannot resume runs' });
    let body: unknown;
    try {
      body = JSON.parse(await readBody(req));
    } catch {
      return send(res, 400, { error: 'the body must be JSON' });
    }
    const run = await read();
    if (run.state === 'running') return send(res, 409, { error: `run ${id} is running` });
    if (action === '/approvals') {
      const problem = approvalsProblem(body, run);
      if (problem) return send(res, 400, { error: problem });
      start({ journal: dir, id }, body as Approvals);
      return send(res, 202, { id });
    }
    const fork = forkProblem(body, run);
    if (typeof fork === 'string') return send(res, 400, { error: fork });
    const forkId = await writeFork(dir, run, fork.at, fork.answer);
    start({ journal: dir, id: forkId }, {});
    return send(res, 202, { id: forkId });
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, { error: error instanceof Error ? error.message : String(error) });
      else res.end();
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, host, () => ok());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}/?token=${token}`,
    port,
    token,
    async idle() {
      while (running.size > 0) await Promise.all([...running]);
    },
    track: (run, work) => track(run, work),
    events,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((ok, fail) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
      if (text.length > 1_000_000) fail(new Error('body too large'));
    });
    req.on('end', () => ok(text));
    req.on('error', fail);
  });
}

// Server-sent events: each journal entry once (`entry`), `reset` when the journal file was replaced or
// cut (the entries then come again from the first), and the run's state when it changes (`state`).
// The journal file is the one store: its tail, shared by every client of the run, reads only what
// was appended since it last read.
function streamEvents(
  req: IncomingMessage,
  res: ServerResponse,
  tail: JournalTail,
  read: () => Promise<RunDetail & { views: number }>,
  pollMs: number,
): void {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-store',
    Connection: 'keep-alive',
  });
  let sent = 0;
  let lastState = '';
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  // The entries of the tail this client has not had yet: the tail only grows, or starts over.
  const flush = () => {
    const entries = tail.entries;
    for (; sent < entries.length; sent++)
      res.write(`event: entry\ndata: ${JSON.stringify(entries[sent])}\n\n`);
  };
  const unsubscribe = tail.subscribe((change) => {
    if (change.type === 'reset') {
      sent = 0;
      res.write('event: reset\ndata: {}\n\n');
    }
    flush();
  });
  req.on('close', () => {
    closed = true;
    unsubscribe();
    if (timer) clearTimeout(timer);
  });
  const tick = async () => {
    if (closed) return;
    try {
      const run = await read();
      flush();
      const state = JSON.stringify({
        state: run.state,
        stateReason: run.stateReason,
        views: run.views,
        calls: run.calls,
        tokens: run.tokens,
        pending: run.pending,
      });
      if (state !== lastState) {
        lastState = state;
        res.write(`event: state\ndata: ${state}\n\n`);
      }
    } catch (error) {
      res.write(
        `event: problem\ndata: ${JSON.stringify({ error: error instanceof Error ? error.message : String(error) })}\n\n`,
      );
    }
    if (!closed) {
      timer = setTimeout(tick, pollMs);
      timer.unref();
    }
  };
  void tick();
}

function approvalsProblem(body: unknown, run: RunDetail): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return 'the body must be { [approvalId]: { approved, message? } }';
  }
  const waiting = new Set(run.pending.map((p) => p.id));
  const ids = Object.keys(body);
  if (ids.length === 0) return 'give a decision on at least one pending call';
  for (const [id, decision] of Object.entries(body)) {
    if (!waiting.has(id)) return `run ${run.id} does not wait for a call ${id}`;
    const d = decision as { approved?: unknown; message?: unknown } | null;
    if (typeof d !== 'object' || d === null || typeof d.approved !== 'boolean') {
      return `${id}: approved must be true or false`;
    }
    if (d.message !== undefined && typeof d.message !== 'string') return `${id}: message must be a string`;
  }
  return undefined;
}

function forkProblem(body: unknown, run: RunDetail): { at: number; answer?: string } | string {
  const b = body as { at?: unknown; answer?: unknown } | null;
  const calls = run.entries.filter((e) => e.type === 'model').length;
  if (typeof b !== 'object' || b === null || !Number.isInteger(b.at) || (b.at as number) < 0) {
    return 'the body must be { at: <call index>, answer?: string }';
  }
  if ((b.at as number) >= calls) return `at: run ${run.id} has ${calls} model calls (0 to ${calls - 1})`;
  if (b.answer !== undefined && typeof b.answer !== 'string') return 'answer must be a string';
  return { at: b.at as number, ...(b.answer !== undefined && { answer: b.answer }) };
}

// A fork is a new run of the same folder: the same record under a new id, and a journal holding the
// entries before model call `at` (plus that call with its answer edited, when one is given). Resumed,
// it replays those from its journal and is live from there.
async function writeFork(dir: string, run: RunDetail, at: number, answer?: string): Promise<string> {
  const base = run.id.replace(/-fork\d+$/, '');
  let n = 1;
  while (
    existsSync(join(dir, `${base}-fork${n}.run.json`)) ||
    existsSync(join(dir, `${base}-fork${n}.jsonl`))
  )
    n++;
  const forkId = `${base}-fork${n}`.slice(0, 128);
  const kept: JournalEntry[] = [];
  let calls = 0;
  for (const entry of run.entries) {
    if (entry.type === 'model') {
      if (calls === at) {
        if (answer !== undefined)
          kept.push({ ...entry, response: { ...entry.response, text: answer, toolCalls: [] } });
        break;
      }
      calls++;
    }
    kept.push(entry);
  }
  const journal = fileJournal(dir);
  for (const entry of kept) await journal.append(forkId, entry);
  const record = JSON.parse(readFileSync(join(dir, `${run.id}.run.json`), 'utf8')) as Record<string, unknown>;
  writeFileSync(
    join(dir, `${forkId}.run.json`),
    `${JSON.stringify({ ...record, runId: forkId, createdAt: new Date().toISOString() }, null, 2)}\n`,
    { flag: 'wx' },
  );
  return forkId;
}
