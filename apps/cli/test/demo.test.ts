import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockHandler, mockProviderServer } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { cooperativeModel, swarm } from './swarm-process.js';

const dir = mkdtempSync(join(tmpdir(), 'swarm-demo-'));

// The demo runs one spec per registered topology except AutoSwarmBuilder (it designs its own team).
async function demoTypes(): Promise<string[]> {
  const ran = await swarm(['types']);
  return [...ran.stdout.matchAll(/^(\w+) {2}\(/gm)].map((m) => m[1]!).filter((t) => t !== 'AutoSwarmBuilder');
}

async function demoAgainst(handler: MockHandler, out: string) {
  const server = await mockProviderServer({ handler });
  try {
    const ran = await swarm(['demo', '--out', out], {
      SWARM_MODEL: 'openai:x',
      OPENAI_API_KEY: 'test-key',
      OPENAI_BASE_URL: server.openaiBaseURL,
    });
    return { ran, requests: server.requests.length };
  } finally {
    await server.close();
  }
}

describe('swarm demo with a model', () => {
  it('runs every demo spec to an answer and writes a report for each', async () => {
    const types = await demoTypes();
    expect(types.length).toBeGreaterThanOrEqual(20);
    const out = join(dir, 'ok');
    // A group chat's members bid high enough to speak (a sampled bid of 0 would end it at once).
    const bidding = cooperativeModel((request) => {
      const choice = request.body.tool_choice as { function?: { name?: string } } | undefined;
      if (choice?.function?.name !== 'respond') return undefined;
      return { toolCalls: [{ name: 'respond', arguments: { score: 0.9, message: 'a point' } }] };
    });
    const { ran } = await demoAgainst(bidding, out);
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    expect(ran.stdout).not.toMatch(/failed/);
    const headings = [...ran.stdout.matchAll(/^(\w+): /gm)].map((m) => m[1]);
    expect(headings).toEqual(['Model', ...types]);
    expect(ran.stdout.match(/^ {2}\(\d+ calls, \d+ tokens\)$/gm)).toHaveLength(types.length);
    expect(readdirSync(out).sort()).toEqual(types.map((t) => `${t.toLowerCase()}.html`).sort());
  });

  it('prints one clear failure line per demo that fails, and exits non-zero', async () => {
    const types = await demoTypes();
    const { ran } = await demoAgainst(() => ({ fault: 'server-error', status: 400 }), join(dir, 'failing'));
    expect(ran.code).toBe(1);
    const failures = ran.stdout.match(/^ {2}failed: .*$/gm) ?? [];
    expect(failures).toHaveLength(types.length);
    for (const line of failures) expect(line).toMatch(/^ {2}failed: (MODEL|NO_ANSWER): /);
    expect(ran.stderr).toBe(`swarm: ${types.length} demo(s) failed: ${types.join(', ')} (see above)\n`);
  });
});
