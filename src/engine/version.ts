/**
 * Identifies the engine build in every stored analysis, so analyses made by an older algorithm
 * can be found and redone. Raise ALGORITHM_VERSION whenever a change alters any output value.
 */
export const ALGORITHM_VERSION = 5;

/** essentia.js package version and the essentia core it wraps. */
export const ESSENTIA_VERSION = 'essentia.js 0.1.3 (essentia 2.1-beta6-dev)';

export const ENGINE_ID = `trackgraph-engine/${ALGORITHM_VERSION} ${ESSENTIA_VERSION}`;
