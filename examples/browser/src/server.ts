// Node side of the example: bundles src/main.ts for the browser with esbuild (no node polyfills)
// and serves the page on a loopback port. Used by `start` and by the test.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

let bundled: Promise<string> | undefined;

/**
 * src/main.ts and everything it imports (the built @swarm packages) as one ES module for the
 * browser; bundled once per process.
 */
export function bundlePage(): Promise<string> {
  bundled ??= bundle();
  return bundled;
}

async function bundle(): Promise<string> {
  const result = await build({
    entryPoints: [here('./main.ts')],
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'esm',
    target: 'es2023',
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/** Options of `servePage`. */
export interface ServePageOptions {
  /** Serve @swarm/embeddings' word vectors, which the forest's sense check fetches (default true). */
  wordVectors?: boolean;
}

/** The page being served. */
export interface ServedPage {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string;
  /** The paths the browser asked for, in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

/**
 * Serves the page at `/`, the bundle at `/assets/main.js` and, unless told not to, the word vectors
 * at `/data/word-vectors.bin`: where @swarm/embeddings looks for them from inside a bundle,
 * `new URL('../data/word-vectors.bin', import.meta.url)`, as beside its own `dist/`.
 */
export async function servePage(options: ServePageOptions = {}): Promise<ServedPage> {
  const [html, script] = await Promise.all([readFile(here('../index.html')), bundlePage()]);
  const vectors =
    options.wordVectors === false
      ? undefined
      : await readFile(here('../node_modules/@swarm/embeddings/data/word-vectors.bin'));
  const files: Record<string, { body: string | Buffer; type: string } | undefined> = {
    '/': { body: html, type: 'text/html; charset=utf-8' },
    '/assets/main.js': { body: script, type: 'text/javascript; charset=utf-8' },
    '/data/word-vectors.bin': vectors && { body: vectors, type: 'application/octet-stream' },
  };
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    requests.push(path);
    const file = req.method === 'GET' ? files[path] : undefined;
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return;
    }
    res.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store' }).end(file.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
