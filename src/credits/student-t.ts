// Student's t lives with the other statistics (stats/student-t.ts); the credit forecast's callers know it here.
export { lnGamma, regularizedBeta, studentTCdf, studentTQuantile } from '../stats/student-t.js';
