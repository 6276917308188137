/**
 * Identifies the engine build in every stored analysis, so analyses made by an older algorithm
 * can be found and redone. Raise ALGORITHM_VERSION whenever a change alters any output value.
 */
export const ALGORITHM_VERSION = 35;

export const ENGINE_ID = `trackgraph-engine/${ALGORITHM_VERSION}`;
