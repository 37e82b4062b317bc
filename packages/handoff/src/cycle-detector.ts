/**
 * True when the path of active agents ends with two agents bouncing the conversation back and
 * forth three times (A→B→A→B→A→B); handing back once or twice (A→B→A→B→A) is normal.
 */
export function isPingPong(path: readonly string[]): boolean {
  const tail = path.slice(-6);
  if (tail.length < 6) return false;
  const [a, b] = tail as [string, string];
  return a !== b && tail.every((agent, i) => agent === (i % 2 === 0 ? a : b));
}
