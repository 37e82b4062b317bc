import type { SwarmEvent } from '@swarm/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { progress } from './progress.js';

// A stand-in for process.stderr: a terminal (or not) that records what is written to it.
function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  const stream = { isTTY, columns: 200, write: (text: string) => writes.push(text) > 0 };
  return { stream: stream as unknown as NodeJS.WriteStream, writes };
}

const event = (type: string, fields: Record<string, unknown> = {}): SwarmEvent =>
  ({ type, runId: 'r', at: new Date().toISOString(), topology: 'T', ...fields }) as SwarmEvent;

afterEach(() => vi.useRealTimers());

describe('progress', () => {
  it('redraws one status line with calls, tokens, elapsed time and the agent at work', () => {
    vi.useFakeTimers();
    const { stream, writes } = fakeStream(true);
    const live = progress(stream);
    live.onEvent(event('model.request', { agent: 'writer' }));
    live.onEvent(event('model.response', { agent: 'writer', usage: { totalTokens: 1200 } }));
    live.onEvent(event('model.request', { agent: 'critic' }));
    live.onEvent(event('model.response', { agent: 'critic', usage: { totalTokens: 34 } }));
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the terminal's erase-line sequence
    expect(writes.at(-1)).toMatch(/^\r\x1b\[2K. \d+\.\ds · 2 call\(s\) · 1,234 tokens · critic$/);
    const drawn = writes.length;
    vi.advanceTimersByTime(1000);
    expect(writes.length).toBe(drawn + 5); // redrawn every 200 ms while the run works
    expect(writes.at(-1)).toMatch(/1\.\ds · 2 call\(s\)/);
    live.stop();
    expect(writes.at(-1)).toBe('\r\x1b[2K'); // the line is cleared, so the answer prints clean
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(1000);
    expect(writes.at(-1)).toBe('\r\x1b[2K');
  });

  it('fits the line to the terminal width', () => {
    const { stream, writes } = fakeStream(true);
    (stream as { columns: number }).columns = 30;
    const live = progress(stream);
    live.onEvent(event('model.request', { agent: 'an-agent-with-a-very-long-name' }));
    live.stop();
    expect(writes[0]!.replace('\r\x1b[2K', '').length).toBe(29);
  });

  it('takes a terminal that reports 0 columns (a pseudo-terminal) as 80 wide, not as 20', () => {
    const { stream, writes } = fakeStream(true);
    (stream as { columns: number }).columns = 0;
    const live = progress(stream);
    live.onEvent(event('model.request', { agent: 'writer' }));
    live.stop();
    expect(writes[0]).toMatch(/ · 1 call\(s\) · 0 tokens · writer$/);
  });

  it('writes nothing and starts no timer when the stream is not a terminal', () => {
    vi.useFakeTimers();
    const { stream, writes } = fakeStream(false);
    const live = progress(stream);
    live.onEvent(event('model.request', { agent: 'writer' }));
    vi.advanceTimersByTime(1000);
    live.stop();
    expect(writes).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
