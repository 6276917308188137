import { trackKey } from '../../src/core/track-key';
import { TAGGER_TAG_NAMES } from '../../src/core/tags';
import type { StoredAnalysis, TagScore } from '../../src/core/types';
// The tests' seeded PRNG (mulberry32): the same stream for the same seed.
import { seeded } from '../audio/signals';

/**
 * A synthetic stored analysis for load benchmarks (the shape of a real one, values made up: a
 * benchmark measures serving, not analysing).
 */
export function syntheticAnalysis(i: number): StoredAnalysis {
  const r = (k: number): number => ((i * 7919 + k * 104729) % 1000) / 1000;
  const artist = `Bench Artist ${i % 997}`;
  const trackName = `Bench Track ${i}`;
  return {
    trackKey: trackKey(artist, trackName),
    artist,
    trackName,
    analysedAt: new Date(1_700_000_000_000 + i * 1000).toISOString(),
    source: 'library',
    features: {
      durationMs: 120_000 + i,
      tempo: 70 + r(1) * 110,
      key: i % 12,
      mode: i % 2,
      timeSignature: i % 5 === 0 ? 3 : 4,
      loudness: -20 + r(2) * 14,
      energy: r(3),
      liveness: r(4),
      danceability: r(5),
      instrumentalness: r(6),
      speechiness: r(7),
      valence: r(8),
      arousal: r(9),
      approachability: r(10),
      engagement: r(11),
      acousticness: r(20),
      mood: { happy: r(12), sad: r(13), relaxed: r(14), aggressive: r(15) },
      confidence: { tempo: r(16), key: r(17), mode: r(18), timeSignature: r(19) },
      timeline: { beats: [], bars: [], sections: [] },
      engine: 'synthetic',
    },
  };
}

/**
 * A synthetic stored analysis with a catalogue's spread and correlations instead of
 * syntheticAnalysis's exact functions of i mod 1000: values drawn from a PRNG seeded by i
 * (reproducible), tempo around 120 BPM, 60% major keys, loudness and arousal following energy,
 * danceability leaning on energy, valence on mode, moods on valence and energy (values made up:
 * a benchmark measures serving, not analysing).
 */
export function realisticAnalysis(i: number): StoredAnalysis {
  const r = seeded(i * 2654435761 + 1);
  const clamp = (x: number, lo = 0, hi = 1): number => Math.min(hi, Math.max(lo, x));
  const normal = (): number => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
  const unit = (x: number): number => Math.round(clamp(x) * 1000) / 1000;
  const base = syntheticAnalysis(i);
  const mode = r() < 0.6 ? 1 : 0;
  const energy = unit((r() + r() + r()) / 3 + 0.15 * normal());
  const valence = unit(0.35 + 0.15 * mode + 0.25 * normal());
  return {
    ...base,
    features: {
      ...base.features,
      durationMs: Math.round(clamp(210_000 + 60_000 * normal(), 60_000, 900_000)),
      tempo: Math.round(clamp(120 + 25 * normal() + 10 * energy, 55, 210) * 100) / 100,
      key: Math.floor(r() * 12),
      mode,
      timeSignature: r() < 0.1 ? 3 : 4,
      loudness: Math.round((-18 + 13 * energy + 2 * normal()) * 100) / 100,
      energy,
      liveness: unit(r() ** 2),
      danceability: unit(0.3 + 0.4 * energy + 0.2 * normal()),
      instrumentalness: unit(r() ** 3),
      speechiness: unit(0.05 + 0.1 * r() ** 4),
      acousticness: unit(1 - energy + 0.15 * normal()),
      valence,
      arousal: unit(energy + 0.1 * normal()),
      approachability: unit(0.5 + 0.2 * normal()),
      engagement: unit(0.4 + 0.3 * energy + 0.15 * normal()),
      mood: {
        happy: unit(valence + 0.15 * normal()),
        sad: unit(1 - valence - 0.2 * energy + 0.15 * normal()),
        relaxed: unit(1 - energy + 0.15 * normal()),
        aggressive: unit(energy * (1 - valence) + 0.1 * normal()),
      },
      confidence: { tempo: unit(r()), key: unit(r()), mode: unit(r()), timeSignature: unit(r()) },
    },
  };
}

/**
 * The tagger's 50 tags for synthetic analysis i, exact functions of i mod 1000 as syntheticAnalysis's
 * descriptors are: `rock` rises from 0 to 0.6 as `jazz` falls from 0.6 to 0 (so "rock ≥ 0.35 and
 * jazz ≥ 0.35" matches no analysis, though each matches two in five), every other tag from 0 to
 * 0.3; most probable first (values made up: a benchmark measures serving, not tagging).
 */
export function syntheticTags(i: number): TagScore[] {
  const x = (i % 1000) / 1000;
  const round = (v: number): number => Math.round(v * 1000) / 1000;
  return TAGGER_TAG_NAMES.map((name, k) => ({
    name,
    probability: name === 'rock' ? round(0.6 * x) : name === 'jazz' ? round(0.6 * (1 - x)) : round((((i * 7919 + (k + 30) * 104729) % 1000) / 1000) * 0.3),
  })).sort((a, b) => b.probability - a.probability || (a.name < b.name ? -1 : 1));
}
