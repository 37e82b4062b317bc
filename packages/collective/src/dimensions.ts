import { ConfigError } from '@swarm/core';

/** One quality a response is judged on: its name and what the judge looks at. */
export interface Dimension {
  name: string;
  description: string;
}

/** The six dimensions of the original CouncilAsAJudge, the default. */
export const defaultDimensions: readonly Dimension[] = [
  {
    name: 'accuracy',
    description:
      'Factual correctness: are the claims true, the figures right, the sources faithfully used, with no fabrication?',
  },
  {
    name: 'helpfulness',
    description:
      "Practical value: does it solve the asker's actual problem, with actionable, relevant guidance?",
  },
  {
    name: 'harmlessness',
    description:
      'Safety and ethics: does it avoid harmful, biased or dangerous content, and handle sensitive topics with care?',
  },
  {
    name: 'coherence',
    description:
      'Structure and logic: does it flow, follow from its premises and hold together without contradiction?',
  },
  {
    name: 'conciseness',
    description: 'Economy: does it say what is needed without padding, repetition or digression?',
  },
  {
    name: 'instruction adherence',
    description:
      'Following the request: does it do exactly what was asked, within every stated constraint and format?',
  },
];

/**
 * Resolves the `dimensions` option: names of default dimensions, or `{ name, description }` of
 * the user's own. Names must be distinct and non-empty.
 */
export function resolveDimensions(
  owner: string,
  dimensions: readonly (string | Dimension)[] | undefined,
): Dimension[] {
  if (dimensions === undefined) return [...defaultDimensions];
  if (!Array.isArray(dimensions) || dimensions.length === 0) {
    throw new ConfigError(
      `${owner}: dimensions must be a non-empty array of names or { name, description }.`,
    );
  }
  const seen = new Set<string>();
  return dimensions.map((d, i) => {
    const dimension =
      typeof d === 'string'
        ? (defaultDimensions.find((x) => x.name === d) ?? {
            name: d,
            description: `How good the response is on ${d}.`,
          })
        : d;
    if (
      typeof dimension?.name !== 'string' ||
      dimension.name.trim() === '' ||
      typeof dimension.description !== 'string'
    ) {
      throw new ConfigError(`${owner}: dimensions[${i}] must be a non-empty name or { name, description }.`);
    }
    if (seen.has(dimension.name))
      throw new ConfigError(`${owner}: the dimension "${dimension.name}" is given twice.`);
    seen.add(dimension.name);
    return { name: dimension.name, description: dimension.description };
  });
}
