import type { AnalysisTagsTable } from './database';

/**
 * The analysis_tags rows of an analysis' tags (migration 0008): most probable first, ranked from
 * 1, ties in name order; a name given twice counts once (its first). Anything that is not a
 * {name, probability} with a name and a probability from 0 to 1 is left out: the tags come from
 * the engine or from another server's checked record, and the back-fill reads what older rows
 * hold.
 */
export function tagRows(trackKey: string, tags: unknown): AnalysisTagsTable[] {
  if (!Array.isArray(tags)) return [];
  const seen = new Set<string>();
  const valid: { name: string; probability: number }[] = [];
  for (const t of tags as unknown[]) {
    if (typeof t !== 'object' || t === null) continue;
    const { name, probability } = t as { name?: unknown; probability?: unknown };
    if (typeof name !== 'string' || name.length === 0 || seen.has(name)) continue;
    if (typeof probability !== 'number' || !(probability >= 0 && probability <= 1)) continue;
    seen.add(name);
    valid.push({ name, probability });
  }
  valid.sort((a, b) => b.probability - a.probability || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return valid.map((t, i) => ({ track_key: trackKey, tag: t.name, probability: t.probability, rank: i + 1 }));
}
