/**
 * How an analysis' moods were made, for people, from `method` as the API names it: `signal`,
 * `external`, or `models:<set>[/r<rank>][/p<patches>]` (docs/API.md).
 */
export function methodLabel(method: string): string {
  if (method === 'signal') return 'the engine\'s signal formulas';
  if (method === 'external') return 'another server';
  const models = /^models:([^/\s]+)((?:\/[rp]\d+)*)$/.exec(method);
  if (!models) return method;
  const ways = [...models[2]!.matchAll(/\/([rp])(\d+)/g)].map(([, kind, n]) => (kind === 'r' ? `convolutions factorised at rank ${n}` : `${n} patches per window`));
  return `trained models (${[models[1]!, ...ways].join('; ')})`;
}
