// Domain types shared across the harness (not the reference service).
export * from './errors.js';
export * from './sample.js';
export * from './suite.js';
export * from './client.js';
export * from './answer.js';
export * from './run.js';
export * from './load.js';
export * from './timeline.js';
