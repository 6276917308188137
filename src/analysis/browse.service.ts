import { AppError, invalidArgument } from '../core/errors';
import { DESCRIPTORS, columnOf, orderNameOf, pathOf, valueOf, type DescriptorName, type MoodName } from '../core/descriptors';
import type { DescriptorColumn, DescriptorColumnValues } from '../db/columns';
import { foldForSearch } from '../core/fold';
import { nameProblem, tidyName } from '../core/name';
import { TAGGER_TAGS, taggerTag } from '../core/tags';
import { checkedTrackKey } from '../core/track-key';
import type { StoredAnalysis } from '../core/types';
import { readRanked, type SimilarOptions } from './similar.read';
import type { AnalysisStore } from './store/store';
import type {
  ColumnRange,
  Direction,
  FeatureRow,
  OrderColumn,
  RangeColumn,
  TagCondition,
  TracksFilter,
  TracksPageRequest,
  TracksQuery,
} from './store/tracks.query';

/** Default and largest page of tracks(). */
export const DEFAULT_PAGE = 20;
export const MAX_PAGE = 100;
/** Default and largest answer of similar(). */
export const DEFAULT_SIMILAR = 10;
export const MAX_SIMILAR = 50;

/** The descriptors of the registry that browse filters and orders by. */
const BROWSED = DESCRIPTORS.filter((d) => d.browse);

/** The columns tracks() orders by: the fixed fields, then every descriptor browse covers (ENERGY, MOOD_HAPPY …). */
export type ColumnOrderField =
  | 'ANALYSED_AT'
  | 'TEMPO'
  | 'DURATION_MS'
  | 'LOUDNESS'
  | Uppercase<DescriptorName>
  | `MOOD_${Uppercase<MoodName>}`;

/** What tracks() orders by: a column, or (TAG) the probability of the tag `orderBy.tag` names. */
export type TrackOrderField = ColumnOrderField | 'TAG';

/** The column orderings of tracks(), by name, and the column each reads. */
export const TRACK_ORDER_FIELDS: Readonly<Record<ColumnOrderField, OrderColumn>> = {
  ANALYSED_AT: 'seq',
  TEMPO: 'tempo',
  DURATION_MS: 'duration_ms',
  LOUDNESS: 'loudness',
  ...(Object.fromEntries(BROWSED.map((d) => [orderNameOf(d), columnOf(d)])) as Record<Uppercase<DescriptorName> | `MOOD_${Uppercase<MoodName>}`, OrderColumn>),
};

/** Every order of tracks(): the columns', then TAG. */
export const TRACK_ORDER_FIELD_NAMES: readonly TrackOrderField[] = [...(Object.keys(TRACK_ORDER_FIELDS) as ColumnOrderField[]), 'TAG'];

export interface Range {
  min?: number | null;
  max?: number | null;
}

/** Filters of tracks(); every one given must hold. Ranges are inclusive. Descriptors: the registry's that browse covers. */
export type TrackFilter = TrackFilterFields &
  Partial<Record<DescriptorName, Range | null>> & { mood?: Partial<Record<MoodName, Range | null>> | null };

interface TrackFilterFields {
  tempo?: Range | null;
  durationMs?: Range | null;
  loudness?: Range | null;
  /** Pitch classes 0–11, any of. */
  key?: readonly number[] | null;
  /** 1 major, 0 minor. */
  mode?: number | null;
  /** Beats per bar, any of. */
  timeSignature?: readonly number[] | null;
  /** Substring of the artist, ignoring case, accents and compatibility forms (foldForSearch). */
  artist?: string | null;
  /** Substring of the title, folded alike. */
  trackName?: string | null;
  /** Conditions on the tagger's tags, every one of which must hold (at most MAX_TAG_CONDITIONS). */
  tags?: readonly TagFilter[] | null;
}

/** A condition on one of the tagger's tags: named in any case; a probability range; among the `top` most probable. */
export interface TagFilter {
  name: string;
  min?: number | null;
  max?: number | null;
  top?: number | null;
}

/** Most tag conditions one filter holds. */
export const MAX_TAG_CONDITIONS = 5;

export interface TrackOrder {
  field: TrackOrderField;
  direction: 'ASC' | 'DESC';
  /** With field TAG: the tag (any case) whose probability orders the page. */
  tag?: string | null;
}

export interface TracksRequest {
  filter?: TrackFilter | null;
  orderBy?: Partial<TrackOrder> | null;
  /** Forward: the first `first` tracks after the cursor `after` (or from the start). */
  first?: number | null;
  after?: string | null;
  /** Backward: the last `last` tracks before the cursor `before` (or up to the end), in the same order. */
  last?: number | null;
  before?: string | null;
}

export interface TrackEdge {
  cursor: string;
  node: StoredAnalysis;
}

export interface TracksPage {
  edges: TrackEdge[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  /** The filter as validated, for counting matches on demand. */
  filter: TracksFilter;
}

export interface SimilarTrack {
  analysis: StoredAnalysis;
  distance: number;
}

/** The range filters of tracks(): the filter's field (a top-level name, or a mood's under `mood`) and its column. */
const RANGE_FILTERS: ReadonlyArray<{ path: string; read: (f: TrackFilter) => Range | null | undefined; column: RangeColumn }> = [
  { path: 'tempo', read: (f) => f.tempo, column: 'tempo' },
  { path: 'durationMs', read: (f) => f.durationMs, column: 'duration_ms' },
  { path: 'loudness', read: (f) => f.loudness, column: 'loudness' },
  ...BROWSED.map((d) => ({
    path: pathOf(d),
    read: (f: TrackFilter) =>
      d.group === 'mood' ? f.mood?.[d.name] : f[d.name],
    column: columnOf(d) as RangeColumn,
  })),
];

/**
 * Exploring what has been analysed: filtered and ordered pages of stored analyses with cursors
 * that stay valid while analyses keep arriving, and the tracks nearest to one in feature space.
 * Reads only the store; starts no analysis.
 */
export class BrowseService {
  constructor(
    private readonly query: TracksQuery,
    private readonly store: AnalysisStore,
  ) {}

  /**
   * A page: forward (first/after) or backward (last/before). A backward page is the forward query
   * in the opposite direction from the `before` position, its rows put back in the requested
   * order: the same keyset and the same access paths, so it stays stable while analyses arrive.
   * As Relay allows, the flag away from the cursor is only known one way: paging forward,
   * hasPreviousPage is false; paging backward, hasNextPage is false (the way forward from a page
   * is its endCursor as `after`).
   */
  async tracks(request: TracksRequest): Promise<TracksPage> {
    const page = this.pageRequest(request);
    const rows = await this.query.page({ ...page, limit: page.limit + 1 });
    const more = rows.length > page.limit;
    const { field, direction, tag } = page.orderName;
    const taken = rows.slice(0, page.limit);
    if (page.backward) taken.reverse();
    const edges = taken.map((row) => ({
      cursor: encodeCursor({ field, direction, value: row.value, seq: row.seq, ...(tag ? { tag } : {}) }),
      node: row.analysis,
    }));
    return {
      edges,
      pageInfo: {
        hasNextPage: page.backward ? false : more,
        hasPreviousPage: page.backward ? more : false,
        startCursor: edges[0]?.cursor ?? null,
        endCursor: edges[edges.length - 1]?.cursor ?? null,
      },
      filter: page.filter,
    };
  }

  /** Number of stored analyses matching a filter (counts every match: costlier than a page). */
  count(filter: TracksFilter): Promise<number> {
    return this.query.count(filter);
  }

  /**
   * The validated page request tracks() would run (also for showing its query plan). Backward
   * (`backward`): the query runs in the opposite direction from the `before` position.
   */
  pageRequest(
    request: TracksRequest,
  ): TracksPageRequest & { orderName: { field: TrackOrderField; direction: 'ASC' | 'DESC'; tag?: string }; backward: boolean } {
    const filter = toColumnFilter(request.filter ?? {});
    const field = request.orderBy?.field ?? 'ANALYSED_AT';
    const direction = request.orderBy?.direction ?? 'DESC';
    if (!TRACK_ORDER_FIELD_NAMES.includes(field)) throw invalidArgument(`orderBy.field must be one of ${TRACK_ORDER_FIELD_NAMES.join(', ')}`);
    if (direction !== 'ASC' && direction !== 'DESC') throw invalidArgument('orderBy.direction must be ASC or DESC');
    const tag = orderTag(field, request.orderBy?.tag);
    const given = (v: unknown): boolean => v !== undefined && v !== null;
    if (given(request.first) && given(request.last)) {
      throw invalidArgument('first and last cannot be used together: first (with after) pages forward, last (with before) pages backward');
    }
    if (given(request.after) && given(request.before)) {
      throw invalidArgument('after and before cannot be used together: after (with first) pages forward, before (with last) pages backward');
    }
    const backward = given(request.last) || given(request.before);
    if (backward && given(request.first)) throw invalidArgument('before pages backward: use it with last, not first');
    if (given(request.last) && given(request.after)) throw invalidArgument('after pages forward: use it with first, not last');
    const sizeName = backward ? 'last' : 'first';
    const limit = (backward ? request.last : request.first) ?? DEFAULT_PAGE;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) {
      throw invalidArgument(`${sizeName} must be a whole number from 1 to ${MAX_PAGE}`);
    }
    const cursorName = backward ? 'before' : 'after';
    const text = backward ? request.before : request.after;
    let position: { value: number; seq: number } | undefined;
    if (text !== undefined && text !== null) {
      const cursor = decodeCursor(text, cursorName);
      if (cursor.field !== field || cursor.direction !== direction || cursor.tag !== tag) {
        const name = (o: { field: string; direction: string; tag?: string }): string => `${o.field}${o.tag ? ` (${o.tag})` : ''} ${o.direction}`;
        throw invalidArgument(`${cursorName}: this cursor belongs to orderBy ${name(cursor)}, not ${name({ field, direction, ...(tag ? { tag } : {}) })}`);
      }
      position = { value: cursor.value, seq: cursor.seq };
    }
    // Backward: the rows before the position in this order are the rows after it in the other.
    const runDirection = backward ? (direction === 'ASC' ? 'DESC' : 'ASC') : direction;
    return {
      filter,
      order: tag ? { tag, direction: runDirection.toLowerCase() as Direction } : { column: TRACK_ORDER_FIELDS[field as ColumnOrderField], direction: runDirection.toLowerCase() as Direction },
      ...(position ? { after: position } : {}),
      limit,
      orderName: { field, direction, ...(tag ? { tag } : {}) },
      backward,
    };
  }

  /** The query plan of tracks(request) on this database. */
  explain(request: TracksRequest): Promise<string[]> {
    const page = this.pageRequest(request);
    return this.query.explainPage({ ...page, limit: page.limit + 1 });
  }

  /**
   * The stored tracks nearest to the track of `key` (hex, either case) by `featureDistance`, nearest first. Candidates are
   * read in widening tempo bands around the track and around half and double its tempo, limited to its key neighbourhood (the same or
   * an adjacent place on the circle of fifths, either mode), and ranked here; see docs/API.md,
   * "Similarity", for the distance and what this prefilter can miss. With `otherArtists`, the
   * seed's own artist's tracks are passed over (among the candidates ranked).
   */
  async similar(key: string, first?: number | null, options: SimilarOptions = {}): Promise<SimilarTrack[]> {
    const trackKey = checkedTrackKey(key);
    const limit = first ?? DEFAULT_SIMILAR;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SIMILAR) {
      throw invalidArgument(`first must be a whole number from 1 to ${MAX_SIMILAR}`);
    }
    // Its features only: not its segments.
    const seed = (await this.store.getMany([trackKey], { segments: false })).get(trackKey);
    if (!seed) throw new AppError('TRACK_NOT_FOUND', `no stored analysis for ${trackKey}: analyse it first`);
    const origin = featuresOf(seed);
    const wanted = Math.max(limit * 10, 100);
    let candidates: FeatureRow[] = [];
    const keyModes = keyNeighbourhood(origin.key, origin.mode);
    for (const halfWidth of TEMPO_BANDS_OCTAVES) {
      candidates = await this.query.candidates({
        tempo: tempoBands(origin.tempo, halfWidth),
        keyModes,
        excludeTrackKey: trackKey,
        limit: MAX_CANDIDATES,
      });
      if (candidates.length >= wanted) break;
    }
    if (candidates.length < limit) {
      // A sparse neighbourhood: give up the key prefilter rather than answer short.
      candidates = await this.query.candidates({ tempo: tempoBands(origin.tempo, 0.5), excludeTrackKey: trackKey, limit: MAX_CANDIDATES });
    }
    const ranked = candidates
      .map((c) => ({ trackKey: c.trackKey, distance: featureDistance(origin, c) }))
      .sort((a, b) => a.distance - b.distance || (a.trackKey < b.trackKey ? -1 : 1));
    // Without their segments, as a page's (each reads them when asked: GraphQL's timeline.segments).
    const found = await readRanked(this.store, ranked, limit, options.otherArtists ? foldForSearch(seed.artist) : undefined);
    return found.map((f) => ({ analysis: f.analysis, distance: round(f.distance) }));
  }
}

/**
 * Half-widths (octaves) of the tempo bands similar() reads, narrowest first, each around the
 * tempo and around half and double it. At 0.5 the three bands meet: every tempo from t/2.83 to
 * 2.83·t.
 */
const TEMPO_BANDS_OCTAVES = [0.02, 0.06, 0.15, 0.5] as const;
/** Most candidates ranked per band. */
const MAX_CANDIDATES = 3000;

function tempoBand(tempo: number, halfWidthOctaves: number): { min: number; max: number } {
  const t = tempo > 0 ? tempo : 1;
  return { min: t * 2 ** -halfWidthOctaves, max: t * 2 ** halfWidthOctaves };
}

/**
 * The band around the tempo and the same band around half and double the tempo (where octave-
 * folded matches sit, see featureDistance), in ascending order, overlapping bands merged.
 */
function tempoBands(tempo: number, halfWidthOctaves: number): { min: number; max: number }[] {
  const t = tempo > 0 ? tempo : 1;
  const bands = [t / 2, t, t * 2].map((centre) => tempoBand(centre, halfWidthOctaves));
  const merged: { min: number; max: number }[] = [];
  for (const band of bands) {
    const last = merged[merged.length - 1];
    if (last && band.min <= last.max) last.max = Math.max(last.max, band.max);
    else merged.push({ ...band });
  }
  return merged;
}

/**
 * Added to the tempo term when a track matches at half or double the other's tempo rather than
 * at the same tempo: 0.15, about what a 5 % tempo difference (2·log2(1.05) = 0.14) or one step on
 * the circle of fifths (1/6) adds. Half/double time feels alike, not the same.
 */
export const OCTAVE_PENALTY = 0.15;

/**
 * The tempo term of featureDistance: 2·|log2(tA/tB) − k| for the nearest of the ratios 1, 2 and
 * 1/2 (k = 0, 1, −1), plus OCTAVE_PENALTY when k ≠ 0. 70 vs 140 BPM is 0.15; 70 vs 100 BPM 1.03.
 */
function tempoTerm(a: number, b: number): number {
  if (!(a > 0 && b > 0)) return 1;
  const r = Math.log2(a / b);
  return Math.min(2 * Math.abs(r), 2 * Math.abs(r - 1) + OCTAVE_PENALTY, 2 * Math.abs(r + 1) + OCTAVE_PENALTY);
}

/** Place on the circle of fifths (0–11), a minor key at its relative major (A minor = C major). */
export function fifthsPosition(key: number, mode: number): number {
  const major = mode === 1 ? key : key + 3;
  return (((major * 7) % 12) + 12) % 12;
}

/** Steps between two keys on the circle of fifths, 0–6. */
export function fifthsSteps(a: { key: number; mode: number }, b: { key: number; mode: number }): number {
  const d = Math.abs(fifthsPosition(a.key, a.mode) - fifthsPosition(b.key, b.mode));
  return Math.min(d, 12 - d);
}

/** The (key, mode) pairs at most one step away on the circle of fifths, either mode. */
export function keyNeighbourhood(key: number, mode: number): { key: number; mode: number }[] {
  const origin = { key, mode };
  const pairs: { key: number; mode: number }[] = [];
  for (let k = 0; k < 12; k++) for (const m of [0, 1]) if (fifthsSteps(origin, { key: k, mode: m }) <= 1) pairs.push({ key: k, mode: m });
  return pairs;
}

export type SimilarityFeatures = Omit<FeatureRow, 'trackKey'>;

/** The descriptors of the distance, with their weights (the registry's similarityWeight). */
const WEIGHTED = DESCRIPTORS.filter((d) => d.similarityWeight > 0).map((d) => ({ column: columnOf(d) as DescriptorColumn, weight: d.similarityWeight }));

/**
 * Distance between two tracks in feature space (0 = identical). Euclidean over:
 * tempo 2·|log2(tA/tB)| (a tempo ratio, so 60 vs 66 BPM weighs as 120 vs 132; half an octave = 1),
 * folded at octaves: the ratio is taken to the nearest of 1, 2 and 1/2, a fold costing
 * OCTAVE_PENALTY (tempoTerm);
 * key = steps on the circle of fifths / 6, minor keys placed at their relative major;
 * mode = 0.5 when major meets minor; and the difference of each 0–1 descriptor and mood, times
 * its registry weight (similarityWeight; 1 for each today).
 */
export function featureDistance(a: SimilarityFeatures, b: SimilarityFeatures): number {
  const tempo = tempoTerm(a.tempo, b.tempo);
  const key = fifthsSteps(a, b) / 6;
  const mode = a.mode === b.mode ? 0 : 0.5;
  let sum = tempo * tempo + key * key + mode * mode;
  for (const { column, weight } of WEIGHTED) sum += weight * (a[column] - b[column]) ** 2;
  return Math.sqrt(sum);
}

function featuresOf(a: StoredAnalysis): SimilarityFeatures {
  const f = a.features;
  const values = {} as DescriptorColumnValues;
  for (const d of DESCRIPTORS) values[columnOf(d) as DescriptorColumn] = valueOf(f, d) ?? 0;
  return { tempo: f.tempo, key: f.key, mode: f.mode, ...values };
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

function toColumnFilter(filter: TrackFilter): TracksFilter {
  const ranges: Partial<Record<RangeColumn, ColumnRange>> = {};
  for (const { path, read, column } of RANGE_FILTERS) {
    const range = checkedRange(path, read(filter));
    if (range) ranges[column] = range;
  }
  const out: TracksFilter = {};
  if (Object.keys(ranges).length > 0) out.ranges = ranges;
  if (filter.key !== undefined && filter.key !== null) {
    if (filter.key.length === 0 || filter.key.length > 12 || !filter.key.every((k) => Number.isInteger(k) && k >= 0 && k <= 11)) {
      throw invalidArgument('filter.key must list 1 to 12 pitch classes, each a whole number 0–11');
    }
    out.keys = [...new Set(filter.key)];
  }
  if (filter.mode !== undefined && filter.mode !== null) {
    if (filter.mode !== 0 && filter.mode !== 1) throw invalidArgument('filter.mode must be 1 (major) or 0 (minor)');
    out.mode = filter.mode;
  }
  if (filter.timeSignature !== undefined && filter.timeSignature !== null) {
    const ts = filter.timeSignature;
    if (ts.length === 0 || ts.length > 16 || !ts.every((t) => Number.isInteger(t) && t >= 1 && t <= 16)) {
      throw invalidArgument('filter.timeSignature must list 1 to 16 beats-per-bar values, each a whole number 1–16');
    }
    out.timeSignatures = [...new Set(ts)];
  }
  const artist = checkedText('filter.artist', filter.artist);
  if (artist !== undefined) out.artist = artist;
  const trackName = checkedText('filter.trackName', filter.trackName);
  if (trackName !== undefined) out.trackName = trackName;
  if (filter.tags !== undefined && filter.tags !== null) out.tags = checkedTags(filter.tags);
  return out;
}

function checkedTags(tags: readonly TagFilter[]): TagCondition[] {
  if (tags.length === 0 || tags.length > MAX_TAG_CONDITIONS) throw invalidArgument(`filter.tags must list 1 to ${MAX_TAG_CONDITIONS} tag conditions`);
  return tags.map((t, i) => {
    const at = `filter.tags[${i}]`;
    const tag = typeof t.name === 'string' ? taggerTag(t.name) : undefined;
    if (tag === undefined) {
      throw invalidArgument(`${at}.name: the tagger gives no tag ${JSON.stringify(String(t.name).slice(0, 64))} (taggerTags lists its ${TAGGER_TAGS} tags)`);
    }
    const condition: TagCondition = { names: [tag], ...checkedRange(`tags[${i}]`, t) };
    if (t.top !== undefined && t.top !== null) {
      if (!Number.isInteger(t.top) || t.top < 1 || t.top > TAGGER_TAGS) throw invalidArgument(`${at}.top must be a whole number from 1 to ${TAGGER_TAGS}`);
      condition.top = t.top;
    }
    return condition;
  });
}

function checkedRange(name: string, range: Range | null | undefined): ColumnRange | undefined {
  if (!range) return undefined;
  const out: ColumnRange = {};
  for (const bound of ['min', 'max'] as const) {
    const v = range[bound];
    if (v === undefined || v === null) continue;
    if (!Number.isFinite(v)) throw invalidArgument(`filter.${name}.${bound} must be a finite number`);
    out[bound] = v;
  }
  if (out.min !== undefined && out.max !== undefined && out.min > out.max) {
    throw invalidArgument(`filter.${name}: min (${out.min}) is above max (${out.max})`);
  }
  return out.min === undefined && out.max === undefined ? undefined : out;
}

function checkedText(name: string, value: string | null | undefined): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = tidyName(value);
  const problem = nameProblem(name, text);
  if (problem !== undefined) throw invalidArgument(problem);
  // Matched folded (the store folds it again: folding is idempotent); marks alone fold to nothing.
  if (foldForSearch(text).length === 0) throw invalidArgument(`${name} has no letters to match once accents and marks are set aside`);
  return text;
}

/**
 * The tag a TAG order names, as the tagger spells it; undefined for the other orders (which name
 * none).
 */
function orderTag(field: TrackOrderField, name: string | null | undefined): string | undefined {
  if (field !== 'TAG') {
    if (name !== undefined && name !== null) throw invalidArgument('orderBy.tag is only for orderBy.field TAG');
    return undefined;
  }
  if (name === undefined || name === null) throw invalidArgument(`orderBy.field TAG needs orderBy.tag: one of the tagger's ${TAGGER_TAGS} tags (taggerTags lists them)`);
  const tag = taggerTag(name);
  if (!tag) throw invalidArgument(`orderBy.tag: the tagger gives no tag ${JSON.stringify(String(name).slice(0, 64))} (taggerTags lists its ${TAGGER_TAGS} tags)`);
  return tag;
}

interface Cursor {
  field: TrackOrderField;
  direction: 'ASC' | 'DESC';
  value: number;
  seq: number;
  /** The tag of a TAG order. */
  tag?: string;
}

/** Opaque to clients: base64url of the ordering and the last row's (value, seq). */
export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c.tag ? [c.field, c.direction, c.value, c.seq, c.tag] : [c.field, c.direction, c.value, c.seq])).toString('base64url');
}

export function decodeCursor(text: string, name: 'after' | 'before' = 'after'): Cursor {
  const from = name === 'after' ? 'pageInfo.endCursor' : 'pageInfo.startCursor';
  // Built only for a bad cursor: an AppError (with its stack) per page would be waste.
  const invalid = (): AppError => invalidArgument(`${name} is not a cursor this server gave (use ${from} or an edge cursor)`);
  if (text.length > 200) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed.length < 4 || parsed.length > 5) throw invalid();
  const [field, direction, value, seq, tag] = parsed as unknown[];
  if (typeof field !== 'string' || !TRACK_ORDER_FIELD_NAMES.includes(field as TrackOrderField)) throw invalid();
  if (direction !== 'ASC' && direction !== 'DESC') throw invalid();
  if (typeof value !== 'number' || !Number.isFinite(value) || typeof seq !== 'number' || !Number.isSafeInteger(seq)) throw invalid();
  // A TAG order's cursor names its tag; no other does.
  if ((field === 'TAG') !== (parsed.length === 5) || (tag !== undefined && (typeof tag !== 'string' || taggerTag(tag) !== tag))) throw invalid();
  return { field: field as TrackOrderField, direction, value, seq, ...(typeof tag === 'string' ? { tag } : {}) };
}
