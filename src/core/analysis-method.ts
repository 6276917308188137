/**
 * How an analysis's moods and danceability were made, recorded in its `engine` string (stored
 * with every analysis): `trackgraph-engine/<n>` alone for the engine's signal formulas,
 * `trackgraph-engine/<n> models:<set>` when trained models gave them (MODELS_DIR). An analysis
 * another server made (`upstream:…`) names that server's engine instead.
 */

/** The engine's signal formulas. */
export const SIGNAL_METHOD = 'signal';
/** Made by another server; its engine string says which. */
export const EXTERNAL_METHOD = 'external';

/** The engine string recording a method (`signal` leaves the build alone). */
export function engineWithMethod(engine: string, method: string): string {
  return method === SIGNAL_METHOD ? engine : `${engine} ${method}`;
}

/** The method an engine string records: `signal`, `models:<set>[/r<rank>][/p<n>]`, or `external`. */
export function methodOf(engine: string): string {
  if (!engine.startsWith('trackgraph-engine/')) return EXTERNAL_METHOD;
  const models = /\s(models:\S+)$/.exec(engine);
  return models ? models[1]! : SIGNAL_METHOD;
}
