/**
 * Common English function words. They carry no topic, so keyword extraction and the local
 * embedder ignore them (the seed's "I am a tax expert" matched every task through "i" and "a").
 */
export const englishStopWords: ReadonlySet<string> = new Set(
  `a about above after again against all also am an and any are aren as at be because been before
  being below between both but by can cannot could couldn d did didn do does doesn doing don down
  during each either else ever every few for from further get gets got had hadn has hasn have haven
  having he her here hers herself him himself his how however i if in into is isn it its itself just
  let ll m may me might more most must mustn my myself need no nor not now o of off often on once
  only or other ought our ours ourselves out over own please re s same say says shall shan she
  should shouldn so some such t than that the their theirs them themselves then there these they
  this those through to too under until up us ve very via was wasn we were weren what when where
  which while who whom whose why will with won would wouldn y yet you your yours yourself
  yourselves`
    .split(/\s+/)
    .filter((word) => word !== ''),
);
