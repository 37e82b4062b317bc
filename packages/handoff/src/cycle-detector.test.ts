import { describe, expect, it } from 'vitest';
import { isPingPong } from './cycle-detector.js';

describe('isPingPong', () => {
  it('sees two agents bouncing back and forth three times', () => {
    expect(isPingPong(['a', 'b', 'a', 'b', 'a', 'b'])).toBe(true);
    expect(isPingPong(['c', 'a', 'b', 'a', 'b', 'a', 'b'])).toBe(true);
  });

  it('allows handing back once or twice', () => {
    expect(isPingPong(['a', 'b', 'a'])).toBe(false);
    expect(isPingPong(['a', 'b', 'a', 'b', 'a'])).toBe(false);
  });

  it('leaves loops through three agents to the handoff cap', () => {
    expect(isPingPong(['a', 'b', 'c', 'a', 'b', 'c', 'a', 'b', 'c'])).toBe(false);
    expect(isPingPong(['a', 'b', 'a', 'c', 'a', 'b'])).toBe(false);
  });
});
