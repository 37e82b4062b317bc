/**
 * Splits text into lower-cased word tokens: letters and digits only, so punctuation around a word
 * ("planning,") never hides it.
 */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}
