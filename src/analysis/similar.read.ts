import { foldForSearch } from '../core/fold';
import type { StoredAnalysis } from '../core/types';
import type { AnalysisStore } from './store/store';

/** What similar() leaves out, by descriptors and by sound alike. */
export interface SimilarOptions {
  /**
   * Leave out the tracks of the seed's own artist: their artist's name the seed's, folded as the
   * text filters fold names (case, accents, compatibility forms and spacing: foldForSearch).
   */
  otherArtists?: boolean | null;
}

/** A track found nearest, by key, with its distance (a ranking's entry). */
export interface RankedKey {
  trackKey: string;
  distance: number;
}

export interface FoundAnalysis {
  analysis: StoredAnalysis;
  distance: number;
}

/**
 * The first `limit` of a ranking whose analyses the store holds (without their segments), in the
 * ranking's order: a key the store no longer has is passed over, and so, with `leaveOutArtist`
 * (a folded name), is every track whose artist folds to it. Reads the first `limit` keys, then
 * the next ones in growing batches only while the answer is short.
 */
export async function readRanked(store: AnalysisStore, ranked: readonly RankedKey[], limit: number, leaveOutArtist?: string): Promise<FoundAnalysis[]> {
  const kept: FoundAnalysis[] = [];
  let at = 0;
  let batch = limit;
  while (kept.length < limit && at < ranked.length) {
    const part = ranked.slice(at, at + batch);
    at += part.length;
    batch = Math.max(2 * batch, 20);
    const found = await store.getMany(part.map((r) => r.trackKey), { segments: false });
    for (const r of part) {
      const analysis = found.get(r.trackKey);
      if (!analysis || (leaveOutArtist !== undefined && foldForSearch(analysis.artist) === leaveOutArtist)) continue;
      kept.push({ analysis, distance: r.distance });
      if (kept.length === limit) break;
    }
  }
  return kept;
}
