import { type Member, type Message, memberTurn } from '@swarm/core';
import type { HierarchicalOrder } from './swarm-spec.js';

/** An order as the results record it. */
export interface OrderRecord {
  id: string;
  agentName: string;
  task: string;
  dependsOn: string[];
  status: 'done' | 'failed';
  output?: string;
  error?: string;
  attempts: number;
}

/** One loop of a HierarchicalSwarm: the director's plan, its orders with their outcomes, and feedback. */
export interface HierarchyLoop {
  plan: string;
  done: boolean;
  orders: OrderRecord[];
  /** The director's feedback on the outputs, when `directorFeedback` is on and another loop follows. */
  feedback?: string;
}

/** The director's briefing: the task, and who it can give orders to. */
export function briefing(task: string, members: readonly Member[]): Message {
  const roster = members
    .map((m) => `- ${m.name}${memberDescription(m) ? `: ${memberDescription(m)}` : ''}`)
    .join('\n');
  return {
    role: 'user',
    content: `${task}\n\nAgents you can give orders to:\n${roster}\n\nSplit the task into orders for these agents. Give each order a unique id, the agent's name, exactly what it must do, and in dependsOn the ids of the orders whose outputs it needs. Independent orders run at the same time.`,
  };
}

/**
 * What the director sees from the second loop on: the briefing, its last plan (its own turn), each
 * order's outcome as that agent's turn, its feedback (own turn), and the request for the next spec.
 */
export function nextLoopTurns(
  task: string,
  members: readonly Member[],
  last: HierarchyLoop,
  loop: number,
  maxLoops: number,
): Message[] {
  return [
    briefing(task, members),
    { role: 'assistant', content: `Plan: ${last.plan}` },
    ...last.orders.map((order) => memberTurn(order.agentName, outcomeText(order))),
    ...(last.feedback ? [{ role: 'assistant' as const, content: `Feedback: ${last.feedback}` }] : []),
    {
      role: 'user',
      content: `This is round ${loop} of at most ${maxLoops}. From these results, give orders for what is still missing or failed, or set done to true if they answer the task.`,
    },
  ];
}

/**
 * A worker's input: the original task, the director's plan and this worker's order, and the outputs
 * of the orders it depends on, as typed turns (its own earlier outputs as `assistant`).
 */
export function workerTurns(
  task: string,
  plan: string,
  order: HierarchicalOrder,
  dependencies: readonly OrderRecord[],
  director: string,
): Message[] {
  return [
    { role: 'user', content: task },
    memberTurn(director, `Plan: ${plan}`),
    ...dependencies.map((dep) => {
      const content = `Output of order ${dep.id} (${dep.task}):\n${dep.output ?? ''}`;
      return dep.agentName === order.agentName
        ? { role: 'assistant' as const, content }
        : memberTurn(dep.agentName, content);
    }),
    memberTurn(director, `Your order (${order.id}): ${order.task}`),
  ];
}

/** What the director gives feedback on: the outputs of the loop's finished orders, and nothing else. */
export function feedbackTurns(orders: readonly OrderRecord[]): Message[] {
  return [
    ...orders.filter((o) => o.status === 'done').map((o) => memberTurn(o.agentName, o.output ?? '')),
    {
      role: 'user',
      content:
        'Give feedback on these outputs: what is good, what is wrong or missing, and what each agent should do next.',
    },
  ];
}

/** What the director writes the final answer from: the task and every order's outcome. */
export function finalTurns(task: string, loops: readonly HierarchyLoop[]): Message[] {
  return [
    { role: 'user', content: task },
    ...loops.flatMap((loop) => loop.orders.map((order) => memberTurn(order.agentName, outcomeText(order)))),
    {
      role: 'user',
      content:
        'Write the final answer to the task from these results. Where an order failed, say plainly what is missing.',
    },
  ];
}

function outcomeText(order: OrderRecord): string {
  const head = `Order ${order.id}: ${order.task}`;
  return order.status === 'done'
    ? `${head}\n\n${order.output ?? ''}`
    : `${head}\n\nFAILED after ${order.attempts} attempt(s): ${order.error ?? 'unknown error'}`;
}

/** A member's description, when it has one (an Agent's `description`). */
export function memberDescription(member: Member): string | undefined {
  return 'description' in member && typeof member.description === 'string' ? member.description : undefined;
}
