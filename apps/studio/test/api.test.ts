import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type Studio, startStudio } from '../src/index.js';
import { pausedDesk, resumeDesk, task } from './fixture.js';

let studio: Studio | undefined;
afterEach(async () => {
  await studio?.close();
  studio = undefined;
});

interface Answer {
  status: number;
  body: string;
}

function call(
  s: Studio,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown; token?: string | null } = {},
): Promise<Answer> {
  const token = init.token === undefined ? s.token : init.token;
  const url = token === null ? path : `${path}${path.includes('?') ? '&' : '?'}token=${token}`;
  return new Promise((ok, fail) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: s.port,
        path: url,
        method: init.method ?? 'GET',
        // A connection of its own per request: a refused request's socket is never reused.
        agent: false,
        headers: { host: `127.0.0.1:${s.port}`, ...init.headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          body += c;
        });
        res.on('end', () => ok({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', fail);
    req.end(init.body === undefined ? undefined : JSON.stringify(init.body));
  });
}

describe('swarm studio API', () => {
  it('checks Host, Origin and the token on every route, the page, the event stream and the POSTs included', async () => {
    const dir = await pausedDesk();
    studio = await startStudio({ journals: [dir] });
    const [run] = JSON.parse((await call(studio, '/api/runs')).body) as { id: string }[];
    const id = run!.id;
    const routes: [string, string][] = [
      ['GET', '/'],
      ['GET', '/api/runs'],
      ['GET', `/api/runs/${id}`],
      ['GET', `/api/runs/${id}/events`],
      ['GET', `/api/runs/${id}/report`],
      ['POST', `/api/runs/${id}/approvals`],
      ['POST', `/api/runs/${id}/fork`],
      ['GET', '/no-such-route'],
    ];
    for (const [method, path] of routes) {
      const where = `${method} ${path}`;
      const body = method === 'POST' ? {} : undefined;
      const host = await call(studio, path, {
        method,
        headers: { host: `evil.example:${studio.port}` },
        body: {},
      });
      expect(host.status, where).toBe(403);
      const origin = await call(studio, path, {
        method,
        headers: { origin: 'http://evil.example' },
        body: {},
      });
      expect(origin.status, where).toBe(403);
      expect((await call(studio, path, { method, token: null, body })).status, where).toBe(401);
      expect((await call(studio, path, { method, token: 'wrong', body })).status, where).toBe(401);
    }
  });

  it('refuses a forged Host, a forged Origin, and a missing or wrong token', async () => {
    const dir = await pausedDesk();
    studio = await startStudio({ journals: [dir] });
    expect(
      (await call(studio, '/api/runs', { headers: { host: `evil.example:${studio.port}` } })).status,
    ).toBe(403);
    expect((await call(studio, '/api/runs', { headers: { origin: 'http://evil.example' } })).status).toBe(
      403,
    );
    expect(
      (await call(studio, '/api/runs', { headers: { origin: `http://127.0.0.1:${studio.port + 1}` } }))
        .status,
    ).toBe(403);
    expect((await call(studio, '/api/runs', { token: null })).status).toBe(401);
    expect((await call(studio, '/api/runs', { token: 'wrong' })).status).toBe(401);
    expect((await call(studio, '/', { token: null })).status).toBe(401);
    const ok = await call(studio, '/api/runs', { headers: { origin: `http://127.0.0.1:${studio.port}` } });
    expect(ok.status).toBe(200);
    expect(studio.url).toBe(`http://127.0.0.1:${studio.port}/?token=${studio.token}`);
  });

  it('lists every run of the journal folders, newest first, with state, calls and tokens', async () => {
    const a = await pausedDesk('run-a');
    const b = await pausedDesk('run-b');
    studio = await startStudio({ journals: [a, b], resume: resumeDesk });
    // run-b finishes: then it is done, run-a stays paused.
    const pending = JSON.parse((await call(studio, '/api/runs/run-b')).body).pending as { id: string }[];
    await call(studio, '/api/runs/run-b/approvals', {
      method: 'POST',
      body: { [pending[0]!.id]: { approved: true } },
    });
    await studio.idle();
    const runs = JSON.parse((await call(studio, '/api/runs')).body) as Record<string, unknown>[];
    expect(runs.map((r) => [r.id, r.state, r.calls, r.topology, r.task, r.session])).toEqual([
      ['run-b', 'done', 2, 'agent', task, 'desk'],
      ['run-a', 'paused', 1, 'agent', task, 'desk'],
    ]);
    expect(runs[0]!.tokens).toBeGreaterThan(0);
  });

  it('approving a pending call resumes the run from its journal, and the event stream shows it', async () => {
    const dir = await pausedDesk();
    studio = await startStudio({ journals: [dir], resume: resumeDesk });
    const run = JSON.parse((await call(studio, '/api/runs/run-1')).body);
    expect(run.state).toBe('paused');
    expect(run.pending).toMatchObject([{ tool: 'refund', arguments: { amount: 42 } }]);
    const id = run.pending[0].id as string;
    expect(
      (
        await call(studio, '/api/runs/run-1/approvals', {
          method: 'POST',
          body: { nope: { approved: true } },
        })
      ).status,
    ).toBe(400);
    const posted = await call(studio, '/api/runs/run-1/approvals', {
      method: 'POST',
      body: { [id]: { approved: true } },
    });
    expect(posted.status).toBe(202);
    await studio.idle();
    const after = JSON.parse((await call(studio, '/api/runs/run-1')).body);
    expect(after.state).toBe('done');
    expect(after.pending).toEqual([]);
    expect(after.entries.at(-1).response.text).toBe('Done: refunded 42');

    const events = await eventsUntil(studio, '/api/runs/run-1/events', 'event: state');
    expect(events).toContain('event: entry');
    expect(events).toContain('event: state');
  });

  it('a rejection with a message reaches the model', async () => {
    const dir = await pausedDesk();
    studio = await startStudio({ journals: [dir], resume: resumeDesk });
    const id = JSON.parse((await call(studio, '/api/runs/run-1')).body).pending[0].id as string;
    await call(studio, '/api/runs/run-1/approvals', {
      method: 'POST',
      body: { [id]: { approved: false, message: 'too much' } },
    });
    await studio.idle();
    const after = JSON.parse((await call(studio, '/api/runs/run-1')).body);
    expect(after.entries.at(-1).response.text).toContain('too much');
  });

  it('forks a run at a call: a new run of the same folder replays before it and is live from it', async () => {
    const dir = await pausedDesk();
    studio = await startStudio({ journals: [dir], resume: resumeDesk });
    const id = JSON.parse((await call(studio, '/api/runs/run-1')).body).pending[0].id as string;
    await call(studio, '/api/runs/run-1/approvals', { method: 'POST', body: { [id]: { approved: true } } });
    await studio.idle();
    expect((await call(studio, '/api/runs/run-1/fork', { method: 'POST', body: { at: 9 } })).status).toBe(
      400,
    );
    const fork = await call(studio, '/api/runs/run-1/fork', {
      method: 'POST',
      body: { at: 0, answer: 'No refund today.' },
    });
    expect(fork.status).toBe(202);
    const forkId = JSON.parse(fork.body).id as string;
    expect(forkId).toBe('run-1-fork1');
    await studio.idle();
    const forked = JSON.parse((await call(studio, `/api/runs/${forkId}`)).body);
    expect(forked.state).toBe('done');
    expect(forked.calls).toBe(1);
    expect(forked.entries.at(-1).response.text).toBe('No refund today.');
    const ids = (JSON.parse((await call(studio, '/api/runs')).body) as { id: string }[]).map((r) => r.id);
    expect(ids).toEqual([forkId, 'run-1']);
  });

  it('answers 501 to approvals when it was started without a way to resume runs', async () => {
    const dir = await pausedDesk();
    studio = await startStudio({ journals: [dir] });
    expect((await call(studio, '/api/runs/run-1/approvals', { method: 'POST', body: {} })).status).toBe(501);
  });
});

// The stream's text up to the first event that holds `marker`.
function eventsUntil(s: Studio, path: string, marker: string): Promise<string> {
  return new Promise((ok, fail) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: s.port,
        path: `${path}?token=${s.token}`,
        headers: { host: `127.0.0.1:${s.port}` },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
          if (text.includes(marker) && text.endsWith('\n\n')) {
            req.destroy();
            ok(text);
          }
        });
      },
    );
    req.on('error', fail);
    req.end();
  });
}
