import type { SwarmSpec } from '@swarm/router';
import { topologies } from './registry.js';

const roles: { name: string; instructions: string }[] = [
  { name: 'analyst', instructions: 'You analyse the question and list the key points, briefly.' },
  { name: 'writer', instructions: 'You write a short, clear answer from what you are given.' },
  { name: 'critic', instructions: 'You check the answer for mistakes and say what to fix, briefly.' },
  { name: 'editor', instructions: 'You give the final short answer.' },
];

// Configs that keep each demo short; types not listed run with their defaults.
const configs: Record<string, Record<string, unknown>> = {
  TreeOfThoughts: { numThoughts: 2, maxDepth: 2, breadth: 1 },
  AgentRearrange: { flow: 'analyst -> writer, critic -> editor' },
  GraphWorkflow: {
    edges: [
      ['analyst', 'writer'],
      ['analyst', 'critic'],
      ['writer', 'editor'],
      ['critic', 'editor'],
    ],
  },
  MixtureOfAgents: { layers: 1 },
  GroupChat: { maxMessages: 3 },
  DebateWithJudge: { maxLoops: 1 },
  RoundRobin: { rounds: 1 },
  CoordinatedTreeOfThoughts: { maxDepth: 2, beamWidth: 1 },
};

const tasks: Record<string, string> = {
  TreeOfThoughts: 'Use 4, 9, 10 and 13 with + - * / to make 24.',
  CoordinatedTreeOfThoughts: 'What is the most effective way to learn a new language as an adult?',
  ForestSwarm: 'How do I write a clear error message?',
};

// CoordinatedTreeOfThoughts gives each role to the agent named after it.
const totRoles = [
  { name: 'planner', instructions: 'You propose distinct strategies and next steps.' },
  { name: 'analyzer', instructions: 'You judge how sound and complete a thought is.' },
  { name: 'critic', instructions: 'You look for flaws and risks in a thought.' },
  { name: 'synthesizer', instructions: 'You write the final answer from the best thoughts.' },
];
const agentsOf: Record<string, { name: string; instructions: string }[]> = {
  AgentRearrange: roles,
  GraphWorkflow: roles,
  CoordinatedTreeOfThoughts: totRoles,
};

/** A short spec per registered topology, for `swarm demo` with a model. */
export function demoSpecs(): SwarmSpec[] {
  return topologies
    .filter((d) => d.type !== 'AutoSwarmBuilder')
    .map((d) => {
      const count = Math.min(Math.max(d.minAgents ?? 1, 3), d.maxAgents ?? roles.length, roles.length);
      return {
        name: `${d.type} demo`,
        agents: agentsOf[d.type] ?? roles.slice(0, count),
        topology: d.type,
        config: configs[d.type] ?? {},
        task: tasks[d.type] ?? 'Give three tips for writing clear error messages.',
      };
    });
}
