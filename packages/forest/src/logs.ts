import { randomUUID } from '@swarm/core';

/** Recorded when an agent starts a task (the seed's `AgentLogInput`). */
export interface AgentLogInput {
  logId: string;
  agentName: string;
  task: string;
  /** ISO time the task started. */
  timestamp: string;
}

/** Recorded when an agent finishes a task (the seed's `AgentLogOutput`). */
export interface AgentLogOutput {
  logId: string;
  agentName: string;
  result: string;
  /** ISO time the task finished. */
  timestamp: string;
}

/** Recorded when a tree's agent has run a task (the seed's `TreeLog`). */
export interface TreeLog {
  logId: string;
  treeName: string;
  task: string;
  selectedAgent: string;
  /** ISO time the task finished. */
  timestamp: string;
  result: string;
}

/** Where verbose logging goes: one readable line per record. */
export type ForestLogger = (line: string) => void;

/** The default verbose sink. */
export const consoleLogger: ForestLogger = (line) => console.log(line);

/** A fresh log id. */
export function newLogId(): string {
  return randomUUID();
}

/** Cuts long text for one-line log messages. */
export function preview(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
