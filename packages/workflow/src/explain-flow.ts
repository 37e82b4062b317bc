import type { FlowItem, FlowStep } from './flow-parser.js';

/**
 * A parsed flow as numbered plain-text steps: who runs, what each is given, what runs in parallel,
 * and what the answer is. Pure text from the plan; no model is called.
 */
export function explainFlow(flow: string, steps: readonly FlowStep[]): string {
  const lines = [`Flow: ${flow.trim()}`];
  explainSequence(steps, [], 'the task', '', lines);
  lines.push(`The answer is ${outputsOf(exits(steps))}.`);
  return lines.join('\n');
}

function explainSequence(
  steps: readonly FlowStep[],
  number: readonly number[],
  given: string,
  indent: string,
  lines: string[],
): void {
  let input = given;
  steps.forEach((step, i) => {
    const label = [...number, i + 1].join('.');
    const only = step.length === 1 ? step[0]! : undefined;
    if (only?.kind === 'member') {
      lines.push(`${indent}${label}. ${only.name} gets ${input}.`);
    } else if (only?.kind === 'human') {
      lines.push(`${indent}${label}. A human (H) gets ${input} and answers.`);
    } else {
      lines.push(`${indent}${label}. In parallel, each given ${input}:`);
      step.forEach((item, k) => {
        if (item.kind === 'member') lines.push(`${indent}   - ${item.name}`);
        else if (item.kind === 'human') lines.push(`${indent}   - a human (H)`);
        else {
          lines.push(`${indent}   - a branch:`);
          explainSequence(item.steps, [...number, i + 1, k + 1], 'the same input', `${indent}     `, lines);
        }
      });
    }
    input = `the task and ${outputsOf(exitsOfStep(step))}`;
  });
}

/** The names whose outputs leave a sequence: those of its last step. */
function exits(steps: readonly FlowStep[]): string[] {
  return exitsOfStep(steps.at(-1)!);
}

function exitsOfStep(step: FlowStep): string[] {
  return step.flatMap((item: FlowItem) =>
    item.kind === 'member' ? [item.name] : item.kind === 'human' ? ['H'] : exits(item.steps),
  );
}

function outputsOf(names: readonly string[]): string {
  return names.length === 1 ? `the output of ${names[0]}` : `the outputs of ${names.join(', ')}`;
}
