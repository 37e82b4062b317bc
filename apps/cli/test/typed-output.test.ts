import { join } from 'node:path';
import { type MockProviderServer, mockProviderServer } from '@swarm/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cooperativeModel, swarm, testSpecsDir } from './swarm-process.js';

let server: MockProviderServer;

beforeAll(async () => {
  // Asked for JSON (OpenAI's response_format), the model gives the brief; otherwise it cooperates.
  server = await mockProviderServer({
    handler: cooperativeModel((request) => {
      if (request.body.response_format)
        return { text: '{"title":"Bike lanes","points":["They cut crashes."]}' };
      const choice = request.body.tool_choice as { function?: { name?: string } } | undefined;
      if (choice?.function?.name === 'final_output') {
        return {
          toolCalls: [{ name: 'final_output', arguments: { title: 'Swarm brief', points: ['Typed.'] } }],
        };
      }
      return undefined;
    }),
  });
});
afterAll(() => server.close());

describe('swarm run with a typed answer', () => {
  it('prints the validated object as finalOutput with --json, asked for with strict json_schema', async () => {
    const ran = await swarm(['run', join(testSpecsDir, 'typed-brief.yaml'), '--json'], {
      SWARM_MODEL: 'openai:mock-model',
      OPENAI_API_KEY: 'test-key',
      OPENAI_BASE_URL: server.openaiBaseURL,
    });
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    const result = JSON.parse(ran.stdout) as { finalOutput: unknown };
    expect(result.finalOutput).toEqual({ title: 'Bike lanes', points: ['They cut crashes.'] });
    const formats = server.requests.map(
      (r) => (r.body.response_format as { json_schema?: { strict: boolean } })?.json_schema,
    );
    expect(formats).toEqual([undefined, expect.objectContaining({ name: 'final_output', strict: true })]);
  });

  it("prints the swarm's typed answer from a spec's topology-level outputType with --json", async () => {
    const ran = await swarm(['run', join(testSpecsDir, 'typed-swarm.yaml'), '--json'], {
      SWARM_MODEL: 'openai:mock-model',
      OPENAI_API_KEY: 'test-key',
      OPENAI_BASE_URL: server.openaiBaseURL,
    });
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    const result = JSON.parse(ran.stdout) as { finalOutput: unknown; output: string };
    expect(result.finalOutput).toEqual({ title: 'Swarm brief', points: ['Typed.'] });
    expect(JSON.parse(result.output)).toEqual(result.finalOutput);
  });
});
