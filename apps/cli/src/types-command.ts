import { topologies } from './registry.js';

/** `swarm types`: every registered topology, its agent counts and when to use it. */
export function typesCommand(out: NodeJS.WritableStream): void {
  for (const d of topologies) {
    const min = d.minAgents ?? 1;
    const agents =
      d.maxAgents === undefined
        ? `${min}+ agents`
        : min === d.maxAgents
          ? `${min} agent(s)`
          : `${min}-${d.maxAgents} agents`;
    out.write(`${d.type}  (${agents})\n${wrap(d.description, 96, '  ')}\n\n`);
  }
}

function wrap(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.map((l) => indent + l).join('\n');
}
