// Three topologies nested in one run: a handoff team whose triage agent asks a forest of experts
// (a tool), one of whose experts solves arithmetic puzzles with a Tree of Thoughts (a tool too).
import { Agent, type ModelLike, type Tool } from '@swarm/core';
import { ForestSwarm, Tree, TreeAgent } from '@swarm/forest';
import { Team } from '@swarm/handoff';
import {
  game24Answerer,
  game24Evaluator,
  game24Generator,
  TreeOfThoughts,
  type TreeOfThoughtsOptions,
} from '@swarm/tot';

/** The models of the helpdesk: one per agent, and one for the Tree of Thoughts (or none: it plays by the rules). */
export interface HelpdeskModels {
  triage: ModelLike;
  taxExpert: ModelLike;
  puzzleSolver: ModelLike;
  /** Without one, the search uses the programmatic Game of 24 strategies and needs no model. */
  search?: ModelLike;
}

/** Builds the three nested topologies; returns the outer team and the inner ones for inspection. */
export function buildHelpdesk(models: HelpdeskModels) {
  const searchOptions: TreeOfThoughtsOptions<'final'> = models.search
    ? { model: models.search, searchAlgorithm: 'dfs', maxDepth: 3 }
    : {
        searchAlgorithm: 'dfs',
        generationStrategy: game24Generator(),
        evaluationStrategy: game24Evaluator(),
        answerStrategy: game24Answerer,
        numThoughts: 36,
      };
  const tot = new TreeOfThoughts({ name: 'Game-of-24-search', ...searchOptions });
  const solve24: Tool = tot.asTool({
    name: 'solve_24',
    description: 'Searches for an expression that makes 24 from four numbers; give the puzzle as the task.',
  });

  const forest = new ForestSwarm({
    name: 'Experts',
    trees: [
      new Tree({
        name: 'Finance',
        agents: [
          new TreeAgent({
            name: 'Tax Expert',
            systemPrompt: 'I am a tax expert: corporate taxation, tax filing and deductions for businesses.',
            model: models.taxExpert,
          }),
        ],
      }),
      new Tree({
        name: 'Puzzles',
        agents: [
          new TreeAgent({
            name: 'Puzzle Solver',
            systemPrompt:
              'I solve arithmetic puzzles such as the Game of 24: combine four numbers with + - * / to make 24.',
            model: models.puzzleSolver,
            tools: [solve24],
          }),
        ],
      }),
    ],
  });

  const triage = new Agent({
    name: 'triage',
    instructions: 'Answer the customer. For tax questions or number puzzles, ask the experts first.',
    model: models.triage,
    tools: [
      forest.asTool({
        name: 'ask_experts',
        description:
          'Routes a question to the right expert (taxes, arithmetic puzzles) and returns the answer.',
      }),
    ],
  });
  const team = Team.swarm({ agents: { triage }, entryAgent: 'triage' });
  return { team, forest, tot };
}
