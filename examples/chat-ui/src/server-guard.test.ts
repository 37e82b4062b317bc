// The chat server lets in only its own page: a forged Host (DNS rebinding), another page's Origin,
// a body that is not JSON (what a plain form of any site can post) or a missing token is refused
// before any run starts, so no other page or process spends the user's model credit.
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type ChatServer, startChatServer } from './server.js';
import { createTeam } from './team.js';

let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A raw request, so that Host can be forged as a rebinding page's browser would send it. */
function send(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, url), { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const body = JSON.stringify({ task: 'When was the paperclip patented?' });

describe('the chat server refuses anyone but its own page', { timeout: 60_000 }, () => {
  it('a forged Host is refused, for the page (which holds the token) and for a run', async () => {
    server = await startChatServer({ team: createTeam(undefined, { paceMs: 0 }) });
    const port = new URL(server.url).port;
    const page = await send(server.url, 'GET', '/', { host: `attacker.example:${port}` });
    expect(page.status).toBe(403);
    expect(page.text).not.toContain(server.token);
    const run = await send(
      server.url,
      'POST',
      '/api/run',
      {
        host: `attacker.example:${port}`,
        'content-type': 'application/json',
        authorization: `Bearer ${server.token}`,
      },
      body,
    );
    expect(run.status).toBe(403);
    expect(server.outcomes).toEqual([]);
  });

  it("the page's own HTML carries the token; another Origin, a non-JSON body or no token starts no run", async () => {
    server = await startChatServer({ team: createTeam(undefined, { paceMs: 0 }) });
    const page = await send(server.url, 'GET', '/', {});
    expect(page.status).toBe(200);
    expect(page.text).toContain(`content="${server.token}"`);

    const good = { 'content-type': 'application/json', authorization: `Bearer ${server.token}` };
    const forgedOrigin = await send(
      server.url,
      'POST',
      '/api/run',
      { ...good, origin: 'http://evil.example' },
      body,
    );
    expect(forgedOrigin.status).toBe(403);
    const form = await send(server.url, 'POST', '/api/run', { ...good, 'content-type': 'text/plain' }, body);
    expect(form.status).toBe(415);
    const noToken = await send(server.url, 'POST', '/api/run', { 'content-type': 'application/json' }, body);
    expect(noToken.status).toBe(401);
    const wrongToken = await send(
      server.url,
      'POST',
      '/api/run',
      { ...good, authorization: 'Bearer nope' },
      body,
    );
    expect(wrongToken.status).toBe(401);
    expect(server.outcomes).toEqual([]);

    const own = await send(server.url, 'POST', '/api/run', { ...good, origin: server.url }, body);
    expect(own.status).toBe(200);
    expect(own.text).toContain('"type":"finish"');
  });
});
