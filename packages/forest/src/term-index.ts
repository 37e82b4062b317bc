import { englishStopWords, tokenize } from '@swarm/embeddings';
import { genericWords } from './generic-words.js';
import { stem } from './stem.js';

/** One agent's keywords as the router sees them. */
export interface AgentTerms {
  /** The agent's keywords, as written. */
  keywords: readonly string[];
  /** True when the keywords were given explicitly: then generic words count too, all in full. */
  given: boolean;
  /** The agent's prompt, read for how it uses each keyword (see `TermIndex`). */
  text: string;
}

/** What the task's words say about one agent. */
export interface TermMatch {
  /** The agent's keywords the task contains (compared by stem), in the order the task has them. */
  keywords: string[];
  /** Sum of the matched keywords' weights (specificity, reduced for qualifiers): at most 1 each. */
  score: number;
  /** True when the matched topical keywords (not generic, not shared by most agents) weigh `KEYWORD_EVIDENCE` or more. */
  relevant: boolean;
  /** How many distinct topical stems make up that evidence (one: the sense check applies, see `AgentRouter`). */
  stems: number;
  /**
   * True when every topical stem matched is a name or an acronym as the prompt writes it
   * ("Delaware", "CSS", "IRA"): such a word has one sense, so the sense check does not apply.
   */
  named: boolean;
}

/** The weight of topical keywords a task needs to make an agent relevant without similarity. */
export const KEYWORD_EVIDENCE = 0.5;

/** The share of its weight a keyword keeps when the prompt only uses it to qualify another word. */
export const QUALIFIER_WEIGHT = 0.4;

interface Posting {
  position: number;
  keyword: string;
  /** 1, or `QUALIFIER_WEIGHT` when the prompt only uses the word before another one ("capital" in "capital gains tax"). */
  form: number;
  /** The prompt writes the word as a name or an acronym. */
  named: boolean;
}

/**
 * An inverted index from word stems to the agents whose keywords have them. Each match weighs
 * - the stem's specificity within this group of agents, `ln(1 + N/df) / ln(1 + N)`: 1 for a stem
 *   only one agent has, `ln 2 / ln(1 + N)` for one every agent has;
 * - times `QUALIFIER_WEIGHT` when the prompt only uses the word to qualify the next one ("ceiling" in
 *   "ceiling fans", "capital" in "capital gains tax"): alone, such a word is often another sense
 *   ("the ceiling of the Sistine Chapel", "the capital of Australia").
 * Generic words ("helps", "expert", "deep knowledge") weigh nothing unless the keywords were given.
 * In a group of four or more agents, a stem more than half of them share is boilerplate: it still
 * ranks, but does not count toward relevance.
 */
export class TermIndex {
  readonly #postings = new Map<string, Posting[]>();
  readonly #weight = new Map<string, number>();
  readonly #topical = new Map<string, boolean>();

  constructor(agents: readonly AgentTerms[]) {
    agents.forEach((agent, position) => {
      const seen = new Set<string>();
      const { heads, names } = headStems(agent.text);
      for (const keyword of agent.keywords) {
        const key = stem(keyword);
        if (seen.has(key) || (!agent.given && (englishStopWords.has(keyword) || genericWords.has(key)))) {
          continue;
        }
        seen.add(key);
        const posting = {
          position,
          keyword,
          form: agent.given || heads.has(key) ? 1 : QUALIFIER_WEIGHT,
          named: names.has(key),
        };
        const postings = this.#postings.get(key);
        if (postings) postings.push(posting);
        else this.#postings.set(key, [posting]);
      }
    });
    const n = agents.length;
    for (const [key, postings] of this.#postings) {
      const df = postings.length;
      this.#weight.set(key, n <= 1 ? 1 : Math.log(1 + n / df) / Math.log(1 + n));
      this.#topical.set(key, n < 4 || df <= n / 2);
    }
  }

  /** The specificity of a word within the group (0 when no agent has it). */
  weight(word: string): number {
    return this.#weight.get(stem(word)) ?? 0;
  }

  /** For each agent position the task's words point to, what they matched. */
  match(task: string): Map<number, TermMatch> {
    const matches = new Map<number, TermMatch & { evidence: number }>();
    const stems = new Set(tokenize(task).map(stem));
    for (const key of stems) {
      const postings = this.#postings.get(key);
      if (!postings) continue;
      const weight = this.#weight.get(key)!;
      const topical = this.#topical.get(key)!;
      for (const { position, keyword, form, named } of postings) {
        const match = matches.get(position) ?? {
          keywords: [],
          score: 0,
          relevant: false,
          stems: 0,
          named: true,
          evidence: 0,
        };
        match.keywords.push(keyword);
        match.score += weight * form;
        if (topical) {
          match.evidence += weight * form;
          match.stems++;
          match.named &&= named;
        }
        match.relevant = match.evidence >= KEYWORD_EVIDENCE - 1e-9;
        matches.set(position, match);
      }
    }
    return matches;
  }
}

/**
 * The stems a text uses as the last word of a run of words (runs end at punctuation and stop
 * words; a generic last word does not count, so "tax" heads "tax expert"): "water" in "I fix
 * toilets, water heaters and low water pressure" is never one, "heaters" and "pressure" are. A
 * name or an acronym ("Delaware", "CSS", "IRA") counts wherever it stands: it has one sense.
 */
function headStems(text: string): { heads: Set<string>; names: Set<string> } {
  const heads = new Set<string>();
  const names = new Set<string>();
  for (const clause of text.split(/[^\p{L}\p{N}\s]+/u)) {
    let last: string | undefined;
    (clause.match(/[\p{L}\p{N}]+/gu) ?? []).forEach((written, i) => {
      const word = written.toLowerCase();
      if (englishStopWords.has(word)) {
        if (last !== undefined) heads.add(stem(last));
        last = undefined;
        return;
      }
      const isName = /^\p{Lu}\p{Lu}/u.test(written) || (i > 0 && /^\p{Lu}/u.test(written));
      if (isName) {
        heads.add(stem(word));
        names.add(stem(word));
      }
      if (!genericWords.has(stem(word)) || last === undefined) last = word;
    });
    if (last !== undefined) heads.add(stem(last));
  }
  return { heads, names };
}
