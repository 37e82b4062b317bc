/** The task sentence of the seed's quickstart for four numbers: `Use 4, 9, 10 and 13 with + - * / to make 24.` */
export function game24Task(numbers: readonly number[]): string {
  const list = numbers.map(String);
  return `Use ${list.slice(0, -1).join(', ')} and ${list.at(-1)} with + - * / to make 24.`;
}

/**
 * The puzzle's four numbers from a task: the integers before "to make" (so the quickstart's
 * sentence works), or all of them (`"4 9 10 13"`, as in the dataset). Throws when there are not four.
 */
export function parseGame24Numbers(task: string): number[] {
  const before = task.split(/\bto make\b/i)[0] ?? task;
  const numbers = [...before.matchAll(/\d+/g)].map((m) => Number(m[0]));
  if (numbers.length !== 4)
    throw new RangeError(
      `expected four numbers in the task, found ${numbers.length}: ${JSON.stringify(task)}`,
    );
  return numbers;
}
