import { stem } from './stem.js';

/**
 * Words that say how an agent helps, how good it is or whom it serves, rather than what it knows
 * about: "I am an expert with deep knowledge who helps individuals and businesses" names no
 * subject. They never make an agent relevant as keywords (stop words are left out before this).
 * Stored as stems, so every form of a word is covered.
 */
export const genericWords: ReadonlySet<string> = new Set(
  `able advantage advice advise answer anything area assist benefit best build business care choice
  choose client company comprehensive create customer day deep detail do everything expert expertise
  experience explain field find fix follow free get give good great guidance guide handle help home
  idea improve individual information insight install issue keep know knowledge learn like lot make
  manage matter need new offer optimize option people person plan practice problem professional
  provide question quick recommend repair see service simple solution something specialist
  specialize start stop strategy strategist suggest support take teach team thing time tip topic
  understand use want way well work year`
    .split(/\s+/)
    .filter((word) => word !== '')
    .map(stem),
);
