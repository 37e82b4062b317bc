import type { Guardrail, SwarmEvent } from '@swarm/core';
import { reply } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import type { SessionStore } from './session-store.js';
import { handTo, supportDesk } from './support-desk.fixture.js';
import { Team } from './team.js';

/** A guardrail that passes everything and remembers what it checked. */
function recordingGuardrail(): Guardrail & { seen: string[] } {
  const seen: string[] = [];
  return {
    name: 'recording',
    seen,
    check: (value) => {
      seen.push(value);
      return { tripwire: false };
    },
  };
}

describe('Team.swarm: run lifecycle', () => {
  it('reads the session before the run opens: a failing store runs no guardrail and no model call', async () => {
    const desk = supportDesk({ triage: [reply('Hello.')], billing: [] });
    const guardrail = recordingGuardrail();
    const broken: SessionStore = {
      get: () => Promise.reject(new Error('store is down')),
      set: () => Promise.resolve(),
    };
    const team = Team.swarm({
      agents: { triage: desk.triage, billing: desk.billing },
      entryAgent: 'triage',
      sessions: broken,
      inputGuardrails: [guardrail],
    });
    await expect(team.run('Hi', { sessionId: 'conv-1' })).rejects.toThrow('store is down');
    expect(guardrail.seen).toEqual([]);
    expect(desk.models.triage.calls).toHaveLength(0);
  });

  it('saves the session after the output guardrails passed, and names the answering agent on run.end', async () => {
    const desk = supportDesk({
      triage: [handTo('billing', 'duplicate charge')],
      billing: [reply('Refund issued.')],
    });
    const guardrail = recordingGuardrail();
    const saved: string[] = [];
    const store: SessionStore = {
      get: () => Promise.resolve(undefined),
      set: (_id, state) => {
        saved.push(`${state.lastAgent} after ${guardrail.seen.length} checks`);
        return Promise.resolve();
      },
    };
    const team = Team.swarm({
      agents: { triage: desk.triage, billing: desk.billing },
      entryAgent: 'triage',
      sessions: store,
      outputGuardrails: [guardrail],
    });
    const events: SwarmEvent[] = [];
    const result = await team.run('Charged twice', { sessionId: 'conv-2', onEvent: (e) => events.push(e) });
    expect(saved).toEqual(['billing after 1 checks']);
    expect(guardrail.seen).toEqual(['Refund issued.']);
    const end = events.find((e) => e.type === 'run.end');
    expect(end).toMatchObject({ agent: 'billing', output: 'Refund issued.', llmCalls: result.llmCalls });
    expect(events.find((e) => e.type === 'run.start')).toMatchObject({
      agent: 'triage',
      sessionId: 'conv-2',
    });
  });
});
