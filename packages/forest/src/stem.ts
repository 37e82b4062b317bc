// Inflections first (plural, -ing, -ed), then derivations, each only when at least three letters
// remain.
const inflections: readonly [suffix: string, replacement: string][] = [
  ['sses', 'ss'],
  ['ies', 'y'],
  ['xes', 'x'],
  ['ches', 'ch'],
  ['shes', 'sh'],
  ['ings', ''],
  ['ing', ''],
  ['ied', 'y'],
  ['ed', ''],
  ['s', ''],
];

const derivations: readonly string[] = [
  'ations',
  'ation',
  'itions',
  'ition',
  'ments',
  'ment',
  'ness',
  'ions',
  'ion',
  'ists',
  'ist',
  'ians',
  'ian',
  'ities',
  'ity',
  'ance',
  'ence',
  'able',
  'ible',
  'ical',
  'ic',
  'ive',
  'ize',
  'iz',
  'ise',
  'ful',
  'ous',
  'ers',
  'er',
  'ors',
  'or',
  'ees',
  'ee',
  'ly',
  'al',
  'ate',
];

const agentNouns = new Set(['ers', 'er', 'ors', 'or', 'ees', 'ee']);

const MIN_STEM = 3;

/**
 * A small suffix stemmer for matching words, not for display: it maps the forms of one word to one
 * key, so "taxes", "taxation" and "taxable" meet "tax", and "investing", "investment" and
 * "investor" meet "invest". Words of three letters or fewer, and words with digits, are kept whole.
 */
export function stem(word: string): string {
  let w = word.toLowerCase();
  if (w.length <= MIN_STEM || /\d/.test(w)) return w;
  // One inflection: "s" only when it is a plural ("glass", "status", "analysis" keep theirs).
  for (const [suffix, replacement] of inflections) {
    if (!w.endsWith(suffix) || w.length - suffix.length < MIN_STEM) continue;
    if (suffix === 's' && /(ss|us|is)$/.test(w)) break;
    w = w.slice(0, -suffix.length) + replacement;
    // "refinancing" -> "refinanc" -> "refinance", so it meets "refinance" below.
    if ((suffix === 'ing' || suffix === 'ed') && /(anc|enc|at|iz|is|iv|abl|ibl)$/.test(w)) w += 'e';
    break;
  }
  // Derivations, at most two ("nutritionist" -> "nutrition" -> "nutrit"); an agent noun ("-er",
  // "-or", "-ee") only as the first, so "conversation" does not shrink to "conv".
  for (let strips = 0; strips < 2; strips++) {
    const suffix = derivations.find(
      (d) => w.endsWith(d) && w.length - d.length >= MIN_STEM && (strips === 0 || !agentNouns.has(d)),
    );
    if (suffix === undefined) break;
    w = w.slice(0, -suffix.length);
  }
  // A final "y" after a consonant and a final "e" go ("strategy" ~ "strategic", "file" ~ "filing"),
  // and a doubled final consonant is undoubled ("planning" -> "plann" -> "plan").
  if (w.length > MIN_STEM && /[^aeiou]y$/.test(w)) w = w.slice(0, -1);
  while (w.length > MIN_STEM && w.endsWith('e')) w = w.slice(0, -1);
  if (w.length > MIN_STEM && /([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w)) {
    w = w.slice(0, -1);
  }
  return w;
}
