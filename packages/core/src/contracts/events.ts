/** Event types every topology shares; packages add their own (`forest.route`, `tot.expand`, ...). */
export type CoreEventType =
  | 'run.start'
  | 'run.end'
  | 'run.error'
  | 'run.paused'
  | 'model.request'
  | 'model.response'
  | 'model.error'
  | 'model.delta'
  | 'model.reasoning.delta'
  | 'model.restart'
  | 'tool.call'
  | 'tool.result'
  | 'agent.start'
  | 'agent.end'
  | 'agent.error'
  | 'agent.paused'
  | 'approval.pending'
  | 'journal.diverged'
  | 'answer.empty'
  | 'guardrail.pass'
  | 'guardrail.trip'
  | 'warning';

/**
 * One step of a run, as a plain serializable object. A trace (the array of events) is enough to
 * redraw the run.
 */
export interface SwarmEvent {
  type: CoreEventType | (string & {});
  runId: string;
  /** ISO timestamp. */
  at: string;
  topology?: string;
  agent?: string;
  [key: string]: unknown;
}

/** What a caller gives to `emit`: the event without the fields the run fills in. */
export type EventInput = { type: SwarmEvent['type']; agent?: string; [key: string]: unknown };
