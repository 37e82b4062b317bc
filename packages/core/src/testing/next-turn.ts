/** Resolves after one turn of the event loop: Node's setImmediate, or a zero timer where there is none (a browser). */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof setImmediate === 'function') setImmediate(resolve);
    else setTimeout(resolve, 0);
  });
}
