import type { ChildProcess } from 'node:child_process';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import spawn from 'cross-spawn';
import type { McpStdioServer } from './server-types.js';

/** How long the server gets to exit after its stdin closes, then after SIGTERM, before SIGKILL. */
const exitGraceMs = { stdinClosed: 100, terminated: 400 };
/** The longest message a server may send: past it the server is ended, not this process's memory. */
const maxMessageBytes = 64 * 1024 * 1024;
const stderrTailChars = 2000;
/** How long the pipes of an exited process are read before they are closed. */
const pipeGraceMs = 100;

/**
 * The MCP stdio transport of a server process (Node only), in place of the SDK's for two reasons.
 * A message is read in time linear in its size: the SDK's buffer joins the whole message again at
 * every chunk, so a 5 MB result arrived 5x slower and blocked the event loop 10x longer
 * (`bench/large-result.ts`). And the process is ended for sure and soon: `close()` closes its
 * stdin, sends SIGTERM 100 ms later, SIGKILL 400 ms after that, and resolves once it has exited.
 */
export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The last lines the server wrote on stderr, for messages about why it failed. */
  stderrTail = '';
  /** How the process ended (`exited with code 3`), once it has. */
  exit: string | undefined;
  readonly #server: McpStdioServer;
  #process: ChildProcess | undefined;
  #exited: Promise<void> | undefined;
  #chunks: Buffer[] = [];
  #delivered: Promise<void> = Promise.resolve();
  #buffered = 0;

  constructor(server: McpStdioServer) {
    this.#server = server;
  }

  /** The server's process id, once started. */
  get pid(): number | undefined {
    return this.#process?.pid;
  }

  start(): Promise<void> {
    if (this.#process) return Promise.reject(new Error('The server process is already started.'));
    const child = spawn(this.#server.command, this.#server.args ?? [], {
      env: { ...getDefaultEnvironment(), ...this.#server.env },
      cwd: this.#server.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    this.#process = child;
    const describeExit = (code: number | null, signal: NodeJS.Signals | null) => {
      this.exit ??= signal === null ? `exited with code ${code}` : `was ended by ${signal}`;
    };
    child.once('exit', (code, signal) => {
      describeExit(code, signal);
      // What it wrote last is still read; but a child it started may hold its pipes open for
      // good, and that is not a reason to wait.
      const timer = setTimeout(() => {
        for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.destroy();
      }, pipeGraceMs);
      timer.unref?.();
      child.once('close', () => clearTimeout(timer));
    });
    this.#exited = new Promise((resolve) => {
      child.once('close', (code, signal) => {
        describeExit(code, signal);
        resolve();
        this.onclose?.();
      });
    });
    child.stdout?.on('data', (chunk: Buffer) => this.#read(chunk));
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString()).slice(-stderrTailChars);
    });
    child.stdin?.on('error', (error) => this.onerror?.(error));
    return new Promise((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#process?.stdin;
    if (!stdin || this.exit !== undefined || stdin.destroyed) {
      return Promise.reject(new Error('The server process is not running.'));
    }
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    const child = this.#process;
    if (!child || !this.#exited) return;
    child.stdin?.end();
    if (!(await settlesWithin(this.#exited, exitGraceMs.stdinClosed))) child.kill('SIGTERM');
    if (!(await settlesWithin(this.#exited, exitGraceMs.terminated))) child.kill('SIGKILL');
    await this.#exited;
  }

  // Messages are lines: chunks are kept until one holds a newline, then joined once.
  #read(chunk: Buffer): void {
    let newline = chunk.indexOf(0x0a);
    while (newline !== -1) {
      this.#chunks.push(chunk.subarray(0, newline));
      const line = Buffer.concat(this.#chunks).toString('utf8');
      this.#chunks = [];
      this.#buffered = 0;
      this.#deliver(line);
      chunk = chunk.subarray(newline + 1);
      newline = chunk.indexOf(0x0a);
    }
    if (chunk.length === 0) return;
    this.#chunks.push(chunk);
    this.#buffered += chunk.length;
    if (this.#buffered > maxMessageBytes) {
      this.#chunks = [];
      this.#buffered = 0;
      this.exit = `was ended: it sent a message longer than ${maxMessageBytes / 1024 / 1024} MB`;
      this.onerror?.(
        new Error(`The server sent a message longer than ${maxMessageBytes} bytes; it is ended.`),
      );
      void this.close();
    }
  }

  // Each message is handed on a microtask after the one before. The SDK handles a notification a
  // microtask after it gets it but a response at once: handed on together, a call's last progress
  // notification would come after its response, and be dropped as for an unknown call.
  #deliver(line: string): void {
    const text = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (text.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(text);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    this.#delivered = this.#delivered.then(() => {
      try {
        this.onmessage?.(message);
      } catch (error) {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }
}

function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    timer.unref?.();
    void promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
