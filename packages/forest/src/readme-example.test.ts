import { describe, expect, it } from 'vitest';
import { ForestSwarm, Tree, TreeAgent } from './index.js';

describe('the README example', () => {
  it('routes the deductions task to the Tax Expert by keyword and similarity, as the README prints', async () => {
    // As in README.md, without the run (it would call the model).
    const forest = new ForestSwarm({
      trees: [
        new Tree({
          name: 'Finance',
          agents: [
            new TreeAgent({
              name: 'Tax Expert',
              systemPrompt: 'I am a tax expert: tax returns, deductions, corporate taxation.',
              model: 'gpt-5.4',
            }),
            new TreeAgent({
              name: 'Retirement Planner',
              systemPrompt: 'I plan retirement: pensions, 401(k), IRA.',
              model: 'gpt-5.4',
            }),
          ],
        }),
      ],
    });
    const decision = await forest.route('Which deductions can I claim on my tax return?');
    expect([decision.agent, decision.rule]).toEqual(['Tax Expert', 'keyword+similarity']);
  });
});
