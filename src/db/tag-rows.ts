import { TAGGER_TAG_NAMES } from '../core/tags';
import type { AnalysisTagsTable } from './database';

const TAG_IDS = new Map<string, number>(TAGGER_TAG_NAMES.map((t, i) => [t, i]));

/** A tagger tag's id in analysis_tags: its place among the tagger's outputs (TAGGER_TAG_NAMES), or undefined. */
export function tagId(name: string): number | undefined {
  return TAG_IDS.get(name);
}

/**
 * The analysis_tags rows of an analysis' tags (migration 0008), for the analysis stored as `seq`:
 * its tags ranked from 1, most probable first (ties in the order given, so ranks follow the order
 * the analysis lists its tags in; a name given twice counts once, its first), each tagger tag a
 * row of its id, its probability in thousandths and its rank. Tags the tagger does not give
 * (another server may send others) take their place in the ranking but have no row: browse finds
 * the tagger's alone. Anything that is not a {name, probability} with a name and a probability
 * from 0 to 1 is left out: the tags come from the engine or from another server's checked record,
 * and the back-fill reads what older rows hold.
 */
export function tagRows(seq: number, tags: unknown): AnalysisTagsTable[] {
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
  // A stable sort: the tags as stored are already most probable first (tagScores).
  valid.sort((a, b) => b.probability - a.probability);
  return valid.flatMap((t, i) => {
    const tag = tagId(t.name);
    return tag === undefined ? [] : [{ seq, tag, milli: Math.round(t.probability * 1000), rank: i + 1 }];
  });
}
