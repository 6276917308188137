import { AppError, invalidArgument } from '../core/errors';
import { DESCRIPTORS, TOP_LEVEL, columnOf, valueOf } from '../core/descriptors';
import { genreSeed, type GenreSeed } from '../core/tags';
import { checkedTrackKey } from '../core/track-key';
import type { StoredAnalysis } from '../core/types';
import { fifthsSteps } from './browse.service';
import type { SoundMatch, SoundService } from './sound.service';
import type { AnalysisStore } from './store/store';
import type { ColumnRange, RangeColumn, RankRow, TracksFilter, TracksQuery } from './store/tracks.query';

/** Default and largest number of recommendations; most seed tracks. */
export const DEFAULT_RECOMMENDATIONS = 20;
export const MAX_RECOMMENDATIONS = 100;
export const MAX_SEEDS = 5;

/**
 * The attributes recommendations tune: every top-level descriptor of the registry (browsed ones),
 * then tempo, key, mode, loudness, time signature and duration, by their Spotify names.
 */
export const TUNABLE = [
  ...TOP_LEVEL.filter((d) => d.browse).map((d) => ({ name: d.name, column: columnOf(d) as RangeColumn | 'key' | 'mode' | 'time_signature' })),
  { name: 'tempo', column: 'tempo' },
  { name: 'key', column: 'key' },
  { name: 'mode', column: 'mode' },
  { name: 'loudness', column: 'loudness' },
  { name: 'time_signature', column: 'time_signature' },
  { name: 'duration_ms', column: 'duration_ms' },
] as const satisfies readonly { name: string; column: string }[];

export type Tunable = (typeof TUNABLE)[number]['name'];

/** min_, max_ and target_ values by attribute name (Spotify's names). */
export interface Tuning {
  min?: Partial<Record<string, number>>;
  max?: Partial<Record<string, number>>;
  target?: Partial<Record<string, number>>;
}

export interface RecommendationsRequest {
  seedTracks?: readonly string[];
  /** Genre seeds: tagger tags in Spotify's spelling or the tagger's (GENRE_SEEDS). */
  seedGenres?: readonly string[];
  limit?: number | null;
  tuning?: Tuning;
}

export interface RecommendationSeed {
  /** A seed track's key, or a genre seed as Spotify spells it. */
  id: string;
  type: 'TRACK' | 'GENRE';
  initialPoolSize: number;
  afterFilteringSize: number;
  afterRelinkingSize: number;
}

export interface Recommendations {
  tracks: StoredAnalysis[];
  seeds: RecommendationSeed[];
}

/** A genre seed holds for an analysis whose tags have it among their GENRE_TOP most probable. */
export const GENRE_TOP = 3;

/** Most stored analyses read and ranked per request. */
const POOL = 1500;
/** Half-width of the tempo band read first around the target tempo, octaves (about ±15 %). */
const TEMPO_BAND_OCTAVES = 0.2;

const isTunable = (name: string): boolean => TUNABLE.some((t) => t.name === name);

/**
 * Recommendations by target over the stored analyses: the analyses within every min_/max_
 * (range filters of the browse query, read through its indexes), ranked by their distance to the
 * targets; a target not given is the seed tracks' mean (their first seed's key and mode, their
 * most common time signature). Genre seeds keep the analyses that have one of them among their
 * GENRE_TOP most probable tags (only analyses the models made have tags), and order those equally
 * near by that tag's probability. The seed tracks themselves are never recommended. Reads only
 * the store.
 *
 * Seeded by tracks that have sound embeddings (`sound`: core/sound.ts's EMBEDDINGS_SINCE), the candidates are instead
 * the stored tracks nearest by sound to the seeds' mean embedding (SoundService.nearestToSeeds),
 * kept where every min_/max_ and genre seed holds, and ranked by their sound distance plus their
 * distance to the target_ values given (none: by sound alone).
 */
export class RecommendationsService {
  constructor(
    private readonly query: TracksQuery,
    private readonly store: AnalysisStore,
    private readonly sound?: SoundService,
  ) {}

  async recommend(request: RecommendationsRequest): Promise<Recommendations> {
    const prepared = await this.prepare(request);
    const bySound = prepared.seedKeys.length > 0 && this.sound ? await this.recommendBySound(prepared, request.tuning?.target ?? {}) : undefined;
    return bySound ?? this.recommendByTargets(prepared);
  }

  /**
   * By sound: the nearest to the seeds' mean embedding that the filter holds. Ranked by sound
   * alone (no target_ values), the analyses are read nearest first, `limit` of them and then four
   * times as many each round, until `limit` hold the filter: an unfiltered answer reads only the
   * tracks it returns. With targets, which re-rank, ten times the answer (at least 200) are read,
   * and the whole pool when too few of them hold. Undefined when no seed has an embedding.
   */
  private async recommendBySound(prepared: Prepared, explicit: Partial<Record<string, number>>): Promise<Recommendations | undefined> {
    const { limit, seedKeys, genres, filter } = prepared;
    const targets = Object.fromEntries(Object.entries(explicit).filter((e): e is [string, number] => e[1] !== undefined));
    const ranksBySound = Object.keys(targets).length === 0;
    let pool: SoundMatch[] = [];
    let kept: SoundMatch[] = [];
    for (const size of [Math.max(limit * 10, 200), POOL]) {
      const neighbours = await this.sound!.nearestToSeeds(seedKeys, size);
      if (!neighbours) return undefined;
      pool = [];
      kept = [];
      // Nearest first, in growing chunks: by sound alone, the first `limit` that hold are the answer.
      for (let from = 0, chunk = ranksBySound ? limit : neighbours.length; from < neighbours.length; from += chunk, chunk *= 4) {
        const read = await this.sound!.read(neighbours.slice(from, from + chunk));
        pool.push(...read);
        kept.push(...read.filter((m) => holds(m.analysis, filter)));
        if (ranksBySound && kept.length >= limit) break;
      }
      if (kept.length >= limit || neighbours.length < size) break;
    }
    const ranked = kept
      .map((m) => ({ m, d: Math.hypot(m.distance, distance(rankRowOf(m.analysis), targets)) }))
      .sort((x, y) => x.d - y.d || (x.m.analysis.trackKey < y.m.analysis.trackKey ? -1 : 1))
      .slice(0, limit);
    return {
      tracks: ranked.map((x) => x.m.analysis),
      seeds: [...seedKeys.map((id) => ({ id, type: 'TRACK' as const })), ...genres.map((g) => ({ id: g.seed, type: 'GENRE' as const }))].map((seed) => ({
        ...seed,
        initialPoolSize: pool.length,
        afterFilteringSize: kept.length,
        afterRelinkingSize: kept.length,
      })),
    };
  }

  private async recommendByTargets(prepared: Prepared): Promise<Recommendations> {
    const { limit, seedKeys, genres, filter, targets, exclude } = prepared;
    const pool = await this.pool(filter, targets, exclude, limit, (f) => this.query.featureRows(f, POOL));
    const candidates = pool.filter((r) => !exclude.has(r.trackKey));
    const ranked = candidates
      .map((r) => ({ r, d: distance(r, targets) }))
      .sort((x, y) => x.d - y.d || (y.r.tagProbability ?? 0) - (x.r.tagProbability ?? 0) || (x.r.trackKey < y.r.trackKey ? -1 : 1))
      .slice(0, limit);
    // Without their segments, as a browse page's (each reads them when asked: GraphQL's timeline.segments).
    const stored = await this.store.getMany(ranked.map((x) => x.r.trackKey), { segments: false });
    return {
      tracks: ranked.flatMap((x) => {
        const a = stored.get(x.r.trackKey);
        return a ? [a] : [];
      }),
      seeds: [
        ...seedKeys.map((id) => ({ id, type: 'TRACK' as const })),
        ...genres.map((g) => ({ id: g.seed, type: 'GENRE' as const })),
      ].map((seed) => ({ ...seed, initialPoolSize: pool.length, afterFilteringSize: candidates.length, afterRelinkingSize: candidates.length })),
    };
  }

  /** The database's plans of the statements recommend(request) reads its pool with, in order (TracksQuery.explainFeatureRows). */
  async explain(request: RecommendationsRequest): Promise<string[]> {
    const { limit, filter, targets, exclude } = await this.prepare(request);
    const plans: string[] = [];
    await this.pool(filter, targets, exclude, limit, async (f) => {
      if (plans.length > 0) plans.push('then:');
      plans.push(...(await this.query.explainFeatureRows(f, POOL)));
      return this.query.featureRows(f, POOL);
    });
    return plans;
  }

  /** The request checked, its seeds read (their features only: not their segments), and what the pool is read and ranked by. */
  private async prepare(request: RecommendationsRequest): Promise<Prepared> {
    const limit = request.limit ?? DEFAULT_RECOMMENDATIONS;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_RECOMMENDATIONS) {
      throw invalidArgument(`limit must be a whole number from 1 to ${MAX_RECOMMENDATIONS}`);
    }
    const seedKeys = [...new Set((request.seedTracks ?? []).map(checkedTrackKey))];
    const genres = checkedGenres(request.seedGenres ?? []);
    if (seedKeys.length + genres.length > MAX_SEEDS) throw invalidArgument(`at most ${MAX_SEEDS} seeds, tracks and genres together`);
    const tuning = checkedTuning(request.tuning ?? {});
    if (seedKeys.length === 0 && genres.length === 0 && Object.keys(tuning.target).length === 0 && Object.keys(tuning.min).length === 0 && Object.keys(tuning.max).length === 0) {
      throw invalidArgument('give at least one seed (seed_tracks, seed_genres) or one min_, max_ or target_ value');
    }
    const found = seedKeys.length > 0 ? await this.store.getMany(seedKeys, { segments: false }) : new Map<string, StoredAnalysis>();
    const missing = seedKeys.filter((k) => !found.has(k));
    if (missing.length > 0) throw new AppError('TRACK_NOT_FOUND', `no stored analysis for seed ${missing.join(', ')}: analyse it first`);
    const seeds = seedKeys.map((k) => found.get(k)!);
    const targets = { ...seedTargets(seeds.map(rankRowOf)), ...tuning.target };
    const filter = toFilter(tuning);
    if (genres.length > 0) filter.tags = [{ names: genres.map((g) => g.tag), top: GENRE_TOP }];
    return { limit, seedKeys, genres, filter, targets, exclude: new Set(seedKeys) };
  }

  /**
   * The pool ranked: first the tempo band around the target tempo (an index range); without it
   * when that band holds too few to choose from (fewer than ten times the answer, or 200).
   */
  private async pool(filter: TracksFilter, targets: Record<string, number>, exclude: ReadonlySet<string>, limit: number, read: (filter: TracksFilter) => Promise<RankRow[]>): Promise<RankRow[]> {
    const wanted = Math.max(limit * 10, 200);
    let pool: RankRow[] = [];
    const targetTempo = targets.tempo;
    if (targetTempo !== undefined && targetTempo > 0) pool = await read(withTempoBand(filter, targetTempo));
    if (pool.filter((r) => !exclude.has(r.trackKey)).length < wanted) pool = await read(filter);
    return pool;
  }
}
interface Prepared {
  limit: number;
  seedKeys: string[];
  genres: GenreSeed[];
  filter: TracksFilter;
  targets: Record<string, number>;
  exclude: Set<string>;
}

/** Whether an analysis holds the filter's ranges, key, mode and meter sets and tag conditions (min_/max_ and genre seeds; no text conditions). */
export function holds(a: StoredAnalysis, filter: TracksFilter): boolean {
  const row = rankRowOf(a) as unknown as Record<string, number>;
  for (const [column, range] of Object.entries(filter.ranges ?? {}) as [RangeColumn, ColumnRange | undefined][]) {
    if (!range) continue;
    const v = column === 'duration_ms' ? row.durationMs! : row[column];
    if (v === undefined || !(v >= (range.min ?? -Infinity) && v <= (range.max ?? Infinity))) return false;
  }
  if (filter.keys && !filter.keys.includes(a.features.key)) return false;
  if (filter.mode !== undefined && a.features.mode !== filter.mode) return false;
  if (filter.timeSignatures && !filter.timeSignatures.includes(a.features.timeSignature)) return false;
  for (const condition of filter.tags ?? []) {
    const ranked = [...(a.features.tags ?? [])].sort((x, y) => y.probability - x.probability);
    const ok = ranked.some((t, i) => condition.names.includes(t.name) && i < (condition.top ?? Infinity) && t.probability >= (condition.min ?? 0) && t.probability <= (condition.max ?? 1));
    if (!ok) return false;
  }
  return true;
}

/** The genre seeds named, each once, as Spotify spells them with the tag each stands for. */
function checkedGenres(names: readonly string[]): GenreSeed[] {
  const out = new Set<GenreSeed>();
  for (const name of names) {
    const genre = typeof name === 'string' ? genreSeed(name) : undefined;
    if (genre === undefined) {
      throw invalidArgument(`seed genre ${JSON.stringify(String(name).slice(0, 64))} is not one of the genre seeds (GET /v1/recommendations/available-genre-seeds lists them)`);
    }
    out.add(genre);
  }
  return [...out];
}

interface CheckedTuning {
  min: Record<string, number>;
  max: Record<string, number>;
  target: Record<string, number>;
}

function checkedTuning(tuning: Tuning): CheckedTuning {
  const out: CheckedTuning = { min: {}, max: {}, target: {} };
  for (const bound of ['min', 'max', 'target'] as const) {
    for (const [name, value] of Object.entries(tuning[bound] ?? {})) {
      if (value === undefined) continue;
      if (!isTunable(name)) throw invalidArgument(`${bound}_${name} is not a tunable attribute (${TUNABLE.map((t) => t.name).join(', ')})`);
      if (!Number.isFinite(value)) throw invalidArgument(`${bound}_${name} must be a finite number`);
      out[bound][name] = value;
    }
  }
  for (const name of Object.keys(out.min)) {
    const max = out.max[name];
    if (max !== undefined && out.min[name]! > max) throw invalidArgument(`min_${name} (${out.min[name]}) is above max_${name} (${max})`);
  }
  return out;
}

/** The min_/max_ values as the browse query's filter: ranges of indexed columns, key/mode/meter as sets. */
function toFilter(t: CheckedTuning): TracksFilter {
  const ranges: Partial<Record<RangeColumn, ColumnRange>> = {};
  const filter: TracksFilter = {};
  for (const { name, column } of TUNABLE) {
    const min = t.min[name];
    const max = t.max[name];
    if (min === undefined && max === undefined) continue;
    if (column === 'key' || column === 'mode' || column === 'time_signature') {
      const lo = Math.ceil(min ?? -Infinity);
      const hi = Math.floor(max ?? Infinity);
      const span = column === 'key' ? [0, 11] : column === 'mode' ? [0, 1] : [1, 16];
      const values: number[] = [];
      for (let v = Math.max(lo, span[0]!); v <= Math.min(hi, span[1]!); v++) values.push(v);
      // An empty set matches nothing: a value outside every possible one.
      if (column === 'key') filter.keys = values.length > 0 ? values : [-1];
      else if (column === 'time_signature') filter.timeSignatures = values.length > 0 ? values : [-1];
      else if (values.length === 1) filter.mode = values[0]!;
      else if (values.length === 0) filter.mode = -1;
      continue;
    }
    ranges[column] = { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
  }
  if (Object.keys(ranges).length > 0) filter.ranges = ranges;
  return filter;
}

function withTempoBand(filter: TracksFilter, tempo: number): TracksFilter {
  const given = filter.ranges?.tempo ?? {};
  const min = Math.max(given.min ?? -Infinity, tempo * 2 ** -TEMPO_BAND_OCTAVES);
  const max = Math.min(given.max ?? Infinity, tempo * 2 ** TEMPO_BAND_OCTAVES);
  return { ...filter, ranges: { ...filter.ranges, tempo: { min, max } } };
}

/** An analysis as the rows recommendations rank. */
function rankRowOf(a: StoredAnalysis): RankRow {
  const f = a.features;
  const row: Record<string, unknown> = { trackKey: a.trackKey, tempo: f.tempo, key: f.key, mode: f.mode, loudness: f.loudness, timeSignature: f.timeSignature, durationMs: f.durationMs };
  for (const d of DESCRIPTORS) row[columnOf(d)] = valueOf(f, d) ?? 0;
  return row as RankRow;
}

/** The targets the seeds supply: their mean, their first seed's key and mode, their most common meter. */
function seedTargets(seeds: readonly RankRow[]): Record<string, number> {
  if (seeds.length === 0) return {};
  const out: Record<string, number> = {};
  const mean = (read: (a: RankRow) => number): number => seeds.reduce((s, a) => s + read(a), 0) / seeds.length;
  for (const { name } of TUNABLE) {
    if (name === 'key' || name === 'mode' || name === 'time_signature') continue;
    out[name] = mean((a) => valueOfAttribute(a, name) ?? 0);
  }
  out.key = seeds[0]!.key;
  out.mode = seeds[0]!.mode;
  const meters = seeds.map((a) => a.timeSignature);
  out.time_signature = meters.sort((x, y) => meters.filter((m) => m === y).length - meters.filter((m) => m === x).length)[0]!;
  return out;
}

/** An attribute of a row by its Spotify name. */
function valueOfAttribute(r: RankRow, name: string): number | undefined {
  const column = TUNABLE.find((t) => t.name === name)?.column;
  switch (column) {
    case undefined:
      return undefined;
    case 'time_signature':
      return r.timeSignature;
    case 'duration_ms':
      return r.durationMs;
    default: {
      const v = (r as unknown as Record<string, unknown>)[column];
      return typeof v === 'number' ? v : undefined;
    }
  }
}

/**
 * Distance of an analysis to the targets (Euclidean): a 0–1 descriptor by its difference; tempo
 * by 2·|log2 ratio| (half an octave = 1); key by steps on the circle of fifths / 6 (minor keys at
 * their relative major, the target's mode or the track's own); mode 0.5 when it differs; loudness
 * by the difference / 12 dB; time signature 0.5 when it differs; duration by |log2 ratio|.
 */
function distance(a: RankRow, targets: Record<string, number>): number {
  let sum = 0;
  for (const [name, target] of Object.entries(targets)) {
    const v = valueOfAttribute(a, name);
    if (v === undefined) continue;
    let d: number;
    switch (name) {
      case 'tempo':
        d = v > 0 && target > 0 ? 2 * Math.abs(Math.log2(v / target)) : 1;
        break;
      case 'key':
        d = fifthsSteps({ key: v, mode: a.mode }, { key: Math.round(target), mode: Math.round(targets.mode ?? a.mode) }) / 6;
        break;
      case 'mode':
      case 'time_signature':
        d = Math.round(target) === v ? 0 : 0.5;
        break;
      case 'loudness':
        d = (v - target) / 12;
        break;
      case 'duration_ms':
        d = v > 0 && target > 0 ? Math.abs(Math.log2(v / target)) : 1;
        break;
      default:
        d = v - target;
    }
    sum += d * d;
  }
  return Math.sqrt(sum);
}
