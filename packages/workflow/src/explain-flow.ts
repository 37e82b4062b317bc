import { type FlowStep, humanStep } from './flow-parser.js';

/**
 * A parsed flow as numbered plain-text steps: who runs, what each is given, what runs in parallel,
 * and what the answer is. Pure text from the plan; no model is called.
 */
export function explainFlow(flow: string, steps: readonly FlowStep[]): string {
  const lines = [`Flow: ${flow.trim()}`];
  const answer = explainSequence(steps, [], [], '', lines);
  lines.push(`The answer is ${outputsOf(answer)}.`);
  return lines.join('\n');
}

// Writes the lines of a sequence given the outputs of `handed`; returns whose outputs leave it.
function explainSequence(
  steps: readonly FlowStep[],
  number: readonly number[],
  handed: readonly string[],
  indent: string,
  lines: string[],
): string[] {
  let input = [...handed];
  steps.forEach((step, i) => {
    const label = [...number, i + 1].join('.');
    const given = input.length === 0 ? 'the task' : `the task and ${outputsOf(input)}`;
    const only = step.length === 1 ? step[0]! : undefined;
    const exits: string[] = [];
    if (only?.kind === 'member') {
      lines.push(`${indent}${label}. ${only.name} gets ${given}.`);
      exits.push(only.name);
    } else if (only?.kind === 'human') {
      lines.push(`${indent}${label}. A human (H) gets ${given}, and hands it on with their answer.`);
      exits.push(...input, humanStep);
    } else if (only?.kind === 'group') {
      lines.push(`${indent}${label}. A branch, given ${given}:`);
      exits.push(...explainSequence(only.steps, [...number, i + 1, 1], input, `${indent}   `, lines));
    } else {
      lines.push(`${indent}${label}. In parallel, each given ${given}:`);
      step.forEach((item, k) => {
        if (item.kind === 'member') {
          lines.push(`${indent}   - ${item.name}`);
          exits.push(item.name);
        } else if (item.kind === 'human') {
          lines.push(`${indent}   - a human (H), who hands on what they got with their answer`);
          exits.push(...input, humanStep);
        } else {
          lines.push(`${indent}   - a branch:`);
          exits.push(
            ...explainSequence(item.steps, [...number, i + 1, k + 1], input, `${indent}     `, lines),
          );
        }
      });
    }
    input = exits;
  });
  return input;
}

function outputsOf(names: readonly string[]): string {
  return names.length === 1 ? `the output of ${names[0]}` : `the outputs of ${names.join(', ')}`;
}
