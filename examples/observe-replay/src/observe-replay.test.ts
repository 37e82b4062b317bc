import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scriptedModels } from './helpdesk.js';
import { recordAndReplay } from './observe.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'observe-replay-test-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('observe-replay', () => {
  it('replays the recorded run offline to the same result, and draws it as nested spans', async () => {
    const { recorded, replayed, cassette, tree } = await recordAndReplay(scriptedModels(), dir);

    expect(replayed).toEqual(recorded);
    expect(readFileSync(cassette, 'utf8').trim().split('\n')).toHaveLength(4);
    expect(tree).toEqual([
      'run Swarm  [450 in, 66 out]',
      '  invoke_agent triage',
      '    chat triage  [120 in, 18 out]',
      '    execute_tool ask_experts',
      '      run ForestSwarm  [60 in, 16 out]',
      '        invoke_agent Tax Expert',
      '          chat tax-expert  [60 in, 16 out]',
      '    chat triage  [120 in, 18 out]',
      '    execute_tool handoff',
      '  invoke_agent billing',
      '    chat billing  [150 in, 14 out]',
    ]);
  });
});
