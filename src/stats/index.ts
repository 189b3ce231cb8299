// kbbench's statistics: intervals, paired tests, power and multiple-testing correction. metrics/, compare/ and history read these.
export { normalQuantile, wilsonInterval } from './wilson.js';
export { clusterIndex, clusteredMean, medianInPlace, passRateInterval, quantile, type ClusteredValues, type MeanEstimate } from './intervals.js';
export { pairedTest, pairVerdict, MIN_PAIRED_QUESTIONS, type PairedInput, type PairedMethod, type PairedOptions, type PairedResult, type PairedStatistic, type PairVerdict } from './paired.js';
export { mcnemarScoreP, tangoInterval } from './tango.js';
export { clustersNeeded, smallestSignTestP } from './sign-test.js';
export { erfc, twoSidedNormalP } from './normal.js';
export { detectableDifference, questionsNeeded, repeatsNeeded, type VarianceSplit } from './power.js';
export { holmAdjust } from './holm.js';
export { classOf, passHatK, stabilityOf, type Stability } from './stability.js';
export { decreasingTrendP, type TrendLevel } from './trend.js';
