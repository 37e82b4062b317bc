import { describe, expect, it, vi } from 'vitest';
import { RunContext } from './run-context.js';
import { newRunId } from './run-id.js';

const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newRunId', () => {
  it('gives ids in the shape of a v4 UUID', () => {
    for (let i = 0; i < 100; i++) expect(newRunId()).toMatch(uuidShape);
  });

  it('never gives the same id twice in a process', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newRunId()));
    expect(ids.size).toBe(10_000);
  });

  it('gives another process (a fresh copy of the module) a different random prefix', async () => {
    vi.resetModules();
    const other = (await import('./run-id.js')) as typeof import('./run-id.js');
    expect(other.newRunId).not.toBe(newRunId);
    const here = newRunId();
    const there = other.newRunId();
    expect(there).toMatch(uuidShape);
    expect(there.slice(0, 24)).not.toBe(here.slice(0, 24));
  });

  it('is the id of a run context unless the caller gives one', () => {
    expect(new RunContext().runId).toMatch(uuidShape);
    expect(new RunContext({ runId: 'mine' }).runId).toBe('mine');
    expect(new RunContext().runId).not.toBe(new RunContext().runId);
  });
});
