import type { Usage } from '../contracts/model.js';

/** A fresh all-zero usage record. */
export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cachedTokens: 0, reasoningTokens: 0, totalTokens: 0 };
}

/** Adds `more` into `into` in place and returns it, so totals can be kept without copies. */
export function addUsage(into: Usage, more: Usage): Usage {
  into.inputTokens += more.inputTokens;
  into.outputTokens += more.outputTokens;
  into.cachedTokens += more.cachedTokens;
  into.reasoningTokens += more.reasoningTokens;
  into.totalTokens += more.totalTokens;
  if (more.estimated) into.estimated = true;
  return into;
}

/** The sum of several usage records, as a new object. */
export function sumUsage(...usages: Usage[]): Usage {
  const total = emptyUsage();
  for (const usage of usages) addUsage(total, usage);
  return total;
}
