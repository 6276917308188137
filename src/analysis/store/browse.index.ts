import { sql } from 'kysely';
import { TAGGER_TAGS } from '../../core/tags';
import type { Database } from '../../db/database';
import { DESCRIPTOR_COLUMNS } from '../../db/columns';
import { tagId } from '../../db/tag-rows';
import { LOAD_CHUNK, RevisionedIndex } from './revisioned.index';
import type { BrowseIndex as PageIndex, CandidatesRequest, IndexedPageRow, PageOrder, RangeColumn, RankRow, TagCondition, TracksFilter, TracksPageRequest } from './tracks.query';

/** Every column a range filter tests or a page is ordered by (besides seq). */
const RANGE_COLUMNS: readonly RangeColumn[] = ['tempo', 'duration_ms', 'loudness', ...DESCRIPTOR_COLUMNS];

/** A small whole-number column's NULL (key, mode, time signature). */
const NONE = -32768;

/** A sixteen-hex-digit track key (every key the contract makes) is held as two 32-bit halves. */
const HEX16 = /^[0-9a-f]{16}$/;

/**
 * An in-memory, column-wise copy of the numbers browse filters and orders by: every analysis'
 * seq, tempo, key, mode, time signature, duration, loudness and descriptors, its track key, and
 * the tagger's tags (each tag's probability in thousandths and rank, one array per tag). A page,
 * a count, similar()'s candidates and recommendations' pool are then a scan of typed arrays
 * (about 1 µs an analysis at most: 1,000,000 analyses in a few milliseconds, whatever the filters'
 * correlation), where a database must intersect index ranges that can each hold most of the table.
 * The database stays the truth: a page's rows are read from it by seq.
 *
 * Freshness: every call first asks the database what changed since the last call, as one
 * statement on the indexes (analyses.revision, migration 0012, and seq: revisions.ts says how on
 * each database), and applies it, so a write committed by any process (another API node, a
 * worker) is seen by the next call.
 *
 * The first load reads the table in chunks by seq, in the background: until it is done, callers
 * are told the index is not ready and use the database's own paths.
 */
export class BrowseIndex extends RevisionedIndex implements PageIndex {
  private n = 0;
  private capacity = 0;
  private seqs = new Float64Array(0);
  /** Position of each seq in the arrays (-1: none), indexed by seq. */
  private slotOf = new Int32Array(0);
  private readonly ranges = new Map<RangeColumn, Float64Array>();
  /** The range columns as a row of RankRow names them (durationMs), rebuilt when the arrays grow. */
  private rowColumns: { name: string; values: Float64Array }[] = [];
  private keys = new Int16Array(0);
  private modes = new Int16Array(0);
  private meters = new Int16Array(0);
  private keyHi = new Uint32Array(0);
  private keyLo = new Uint32Array(0);
  /** Track keys that are not sixteen hex digits, by position. */
  private readonly otherKeys = new Map<number, string>();
  /** Per tagger tag id: probability in thousandths (0xffff: the analysis lacks the tag) and rank. */
  private readonly tagMilli: (Uint16Array | undefined)[] = new Array<Uint16Array | undefined>(TAGGER_TAGS).fill(undefined);
  private readonly tagRank: (Uint8Array | undefined)[] = new Array<Uint8Array | undefined>(TAGGER_TAGS).fill(undefined);

  private readonly tagLoaded: boolean[] = new Array<boolean>(TAGGER_TAGS).fill(false);
  private readonly tagLoading = new Map<number, Promise<void>>();

  /**
   * `onError`: told of each failed load, of the index or of a tag (the next call tries again). `wait`: a call before the load
   * waits for it rather than letting the database answer (tests, and one-off readers).
   */
  constructor(
    database: Database,
    onError: (error: unknown) => void = () => {},
    private readonly options: { wait?: boolean } = {},
  ) {
    super(database, onError);
  }

  /** Analyses held. */
  get size(): number {
    return this.n;
  }

  /**
   * True once loaded, with the tags named (a filter's and an order's) loaded too, after applying
   * what changed since the last call; false before (the loads started in the background): the
   * caller answers from the database. Each of the tagger's tags is loaded at its first use (one
   * read of its index, analysis_tags_by_tag), so only the tags browsed by are held.
   */
  async fresh(tags: readonly string[] = []): Promise<boolean> {
    const ids = [...new Set(tags.flatMap((name) => tagId(name) ?? []))].filter((id) => !this.tagLoaded[id]);
    if (!this.loaded || ids.length > 0) {
      const loads = this.load().then(() => Promise.all(ids.map((id) => this.loadTag(id))));
      if (this.options.wait) await loads;
      else {
        // Reported once where it failed (onError); the next call tries again.
        loads.catch(() => {});
        return false;
      }
    }
    await this.sync();
    return true;
  }

  /** Loads one tag's probabilities and ranks (once; later calls share it), in turn with the syncs. */
  private loadTag(id: number): Promise<void> {
    let loading = this.tagLoading.get(id);
    if (!loading) {
      loading = this.tail
        .catch(() => {})
        .then(async () => {
          const { rows } = await sql<{ seq: number | string; milli: number; rank: number }>`select seq, milli, rank from analysis_tags where tag = ${id}`.execute(this.database.db);
          const { milli, rank } = this.tagArrays(id);
          milli.fill(0xffff);
          rank.fill(0);
          for (const t of rows) {
            const i = this.slotOf[Number(t.seq)];
            if (i === undefined || i < 0) continue;
            milli[i] = Number(t.milli);
            rank[i] = Math.min(255, Number(t.rank));
          }
          this.tagLoaded[id] = true;
        })
        .catch((error: unknown) => {
          this.onError(error);
          throw error;
        })
        .finally(() => this.tagLoading.delete(id));
      this.tail = loading;
      this.tagLoading.set(id, loading);
    }
    return loading;
  }

  /** A page's seqs and order values; undefined when the filter has a text condition (the database answers those). */
  page(request: TracksPageRequest): IndexedPageRow[] | undefined {
    const mask = this.matches(request.filter);
    if (mask === undefined) return undefined;
    const order = this.orderOf(request.order);
    if (!order) return [];
    return this.top(order, mask, request.limit, request.after);
  }

  /** How many analyses match; undefined with a text condition. */
  count(filter: TracksFilter): number | undefined {
    const mask = this.matches(filter);
    if (mask === undefined) return undefined;
    if (mask === null) return this.n;
    let count = 0;
    for (let i = 0; i < this.n; i++) count += mask[i]!;
    return count;
  }

  /** similar()'s candidates: as SqlTracksQuery.candidates, any `limit` of the analyses in a band and a (key, mode) pair. */
  candidates(request: CandidatesRequest): RankRow[] {
    const bands = request.tempo;
    const pairs = request.keyModes;
    if (bands.length === 0 || pairs?.length === 0) return [];
    // (key, mode) pairs as a table indexed by both (NULL, and any out of range, in none).
    const pairTable = new Uint8Array(512);
    for (const p of pairs ?? []) if (p.key >= 0 && p.key < 256 && (p.mode === 0 || p.mode === 1)) pairTable[p.key * 2 + p.mode] = 1;
    const lows = Float64Array.from(bands, (b) => b.min);
    const highs = Float64Array.from(bands, (b) => b.max);
    const tempo = this.ranges.get('tempo')!;
    const { keys, modes } = this;
    const out: RankRow[] = [];
    for (let i = 0; i < this.n && out.length < request.limit; i++) {
      const t = tempo[i]!;
      let inBand = false;
      for (let b = 0; b < lows.length && !inBand; b++) inBand = t >= lows[b]! && t <= highs[b]!;
      if (!inBand) continue;
      if (pairs && (keys[i]! < 0 || modes[i]! < 0 || pairTable[keys[i]! * 2 + modes[i]!] !== 1)) continue;
      const key = this.trackKeyAt(i);
      if (key === request.excludeTrackKey) continue;
      out.push(this.rankRow(i, key));
    }
    return out;
  }

  /** Recommendations' pool: the newest `limit` analyses matching, as SqlTracksQuery.featureRows; undefined with a text condition. */
  featureRows(filter: TracksFilter, limit: number): RankRow[] | undefined {
    const page = this.page({ filter, order: { column: 'seq', direction: 'desc' }, limit });
    if (!page) return undefined;
    const first = filter.tags?.[0];
    const tagged = first ? this.tagTest(first) : undefined;
    return page.map(({ seq }) => {
      const i = this.slotOf[seq]!;
      const row = this.rankRow(i, this.trackKeyAt(i));
      if (tagged) row.tagProbability = tagged(i) / 1000;
      return row;
    });
  }

  /**
   * The `limit` first positions of an order among those the mask holds (null: all), after the
   * cursor: one pass over the order's values, a bounded heap of the best found so far, every
   * position compared with its worst first. Keys are signed so the page's order is ascending on
   * (key, signed seq); NULL (NaN) is placed as the dialect places it (SQLite lowest, Postgres
   * highest) and is never after a cursor, as SQL's row comparison with NULL is not true.
   */
  private top(order: { values: Float64Array | Uint16Array; tag: boolean; descending: boolean }, mask: Uint8Array | null, limit: number, after: { value: number; seq: number } | undefined): IndexedPageRow[] {
    if (limit <= 0) return [];
    const { values, tag } = order;
    const sign = order.descending ? -1 : 1;
    const nullKey = sign * (this.database.dialect === 'postgres' ? Infinity : -Infinity);
    const seqs = this.seqs;
    const afterK = after ? sign * after.value : -Infinity;
    const afterS = after ? sign * after.seq : -Infinity;
    const heapK = new Float64Array(limit);
    const heapS = new Float64Array(limit);
    let size = 0;
    let worstK = Infinity;
    let worstS = Infinity;
    const n = this.n;
    // Positions follow seq (appended as stored): a page newest first is scanned from the end, so
    // the first rows fill it and the rest fail the first comparison.
    const backwards = !tag && values === (seqs as Float64Array | Uint16Array) && order.descending;
    for (let step = 0; step < n; step++) {
      const i = backwards ? n - 1 - step : step;
      // The mask first: one byte, and most positions fail it when the filter is narrow.
      if (mask !== null && mask[i] === 0) continue;
      const v = values[i]!;
      if (tag && v === 0xffff) continue;
      const k = v !== v ? nullKey : sign * v;
      const s = sign * seqs[i]!;
      if (k > worstK || (k === worstK && s >= worstS)) continue;
      if (after && (v !== v || k < afterK || (k === afterK && s <= afterS))) continue;
      if (size < limit) {
        // Fill, keeping the heap's root its worst (largest key).
        let at = size++;
        while (at > 0) {
          const parent = (at - 1) >> 1;
          if (heapK[parent]! > k || (heapK[parent] === k && heapS[parent]! > s)) break;
          heapK[at] = heapK[parent]!;
          heapS[at] = heapS[parent]!;
          at = parent;
        }
        heapK[at] = k;
        heapS[at] = s;
      } else {
        // Replace the worst and sift down.
        let at = 0;
        for (;;) {
          const l = 2 * at + 1;
          if (l >= size) break;
          const r = l + 1;
          const c = r < size && (heapK[r]! > heapK[l]! || (heapK[r] === heapK[l] && heapS[r]! > heapS[l]!)) ? r : l;
          if (heapK[c]! < k || (heapK[c] === k && heapS[c]! < s)) break;
          heapK[at] = heapK[c]!;
          heapS[at] = heapS[c]!;
          at = c;
        }
        heapK[at] = k;
        heapS[at] = s;
      }
      if (size === limit) {
        worstK = heapK[0]!;
        worstS = heapS[0]!;
      }
    }
    const found: { k: number; s: number }[] = [];
    for (let j = 0; j < size; j++) found.push({ k: heapK[j]!, s: heapS[j]! });
    found.sort((a, b) => a.k - b.k || a.s - b.s || 0);
    return found.map(({ s }) => {
      const seq = sign * s;
      const v = values[this.slotOf[seq]!]!;
      // A NULL order value is 0, as the database's rows read through Number() give it.
      return { seq, value: v !== v ? 0 : v };
    });
  }

  private rankRow(i: number, trackKey: string): RankRow {
    const row: Record<string, unknown> = { trackKey, key: zeroNull(this.keys[i]!), mode: zeroNull(this.modes[i]!), timeSignature: zeroNull(this.meters[i]!) };
    for (const { name, values } of this.rowColumns) {
      const v = values[i]!;
      // As the database's rows read through Number(): NULL is 0.
      row[name] = v !== v ? 0 : v;
    }
    return row as unknown as RankRow;
  }

  private trackKeyAt(i: number): string {
    return this.otherKeys.get(i) ?? this.keyHi[i]!.toString(16).padStart(8, '0') + this.keyLo[i]!.toString(16).padStart(8, '0');
  }

  /** The page's order: its values by position, and whether they are a tag's (0xffff: the analysis lacks it). */
  private orderOf(order: PageOrder): { values: Float64Array | Uint16Array; tag: boolean; descending: boolean } | undefined {
    const descending = order.direction === 'desc';
    if ('tag' in order) {
      const id = tagId(order.tag);
      const milli = id === undefined ? undefined : this.tagMilli[id];
      return milli ? { values: milli, tag: true, descending } : undefined;
    }
    return { values: order.column === 'seq' ? this.seqs : this.ranges.get(order.column)!, tag: false, descending };
  }

  /**
   * The positions a filter holds, one column at a time into a byte mask (1: holds): null with no
   * condition (every position), undefined with a text condition.
   */
  private matches(filter: TracksFilter): Uint8Array | null | undefined {
    if (filter.artist !== undefined || filter.trackName !== undefined) return undefined;
    const n = this.n;
    let mask: Uint8Array | null = null;
    /** Narrows the mask by a test of each position (the first test fills it). */
    const narrow = (test: (i: number) => boolean): void => {
      if (mask === null) {
        mask = new Uint8Array(n);
        for (let i = 0; i < n; i++) mask[i] = test(i) ? 1 : 0;
      } else for (let i = 0; i < n; i++) if (mask[i] === 1 && !test(i)) mask[i] = 0;
    };
    for (const [column, range] of Object.entries(filter.ranges ?? {}) as [RangeColumn, { min?: number; max?: number } | undefined][]) {
      if (!range) continue;
      const values = this.ranges.get(column)!;
      const min = range.min ?? -Infinity;
      const max = range.max ?? Infinity;
      // A loop of its own (the commonest condition, and no call per position); NaN (NULL) fails
      // both comparisons, as in SQL.
      if (mask === null) {
        const first = new Uint8Array(n);
        for (let i = 0; i < n; i++) {
          const v = values[i]!;
          first[i] = v >= min && v <= max ? 1 : 0;
        }
        mask = first;
      } else {
        const m: Uint8Array = mask;
        for (let i = 0; i < n; i++) {
          if (m[i] === 0) continue;
          const v = values[i]!;
          if (!(v >= min && v <= max)) m[i] = 0;
        }
      }
    }
    const member = (column: Int16Array, allowed: readonly number[]): void => {
      const table = new Uint8Array(65536);
      for (const a of allowed) if (Number.isInteger(a) && a >= -32767 && a <= 32767) table[a & 0xffff] = 1;
      narrow((i) => table[column[i]! & 0xffff] === 1);
    };
    if (filter.keys) member(this.keys, filter.keys);
    if (filter.mode !== undefined) member(this.modes, [filter.mode]);
    if (filter.timeSignatures) member(this.meters, filter.timeSignatures);
    for (const condition of filter.tags ?? []) {
      const test = this.tagTest(condition);
      narrow((i) => test(i) >= 0);
    }
    return mask;
  }

  /** A tag condition as a test of a position: the highest probability (thousandths) among its tags that hold there, or -1. */
  private tagTest(condition: TagCondition): (i: number) => number {
    const min = condition.min === undefined ? 0 : Math.ceil(condition.min * 1000 - 1e-6);
    const max = condition.max === undefined ? 1000 : Math.floor(condition.max * 1000 + 1e-6);
    const top = condition.top ?? 255;
    const tags = condition.names.flatMap((name) => {
      const id = tagId(name);
      const milli = id === undefined ? undefined : this.tagMilli[id];
      return milli ? [{ milli, rank: this.tagRank[id!]! }] : [];
    });
    if (tags.length === 1) {
      const { milli, rank } = tags[0]!;
      return (i) => {
        const m = milli[i]!;
        return m !== 0xffff && m >= min && m <= max && rank[i]! <= top ? m : -1;
      };
    }
    return (i) => {
      let best = -1;
      for (const { milli, rank } of tags) {
        const m = milli[i]!;
        if (m !== 0xffff && m >= min && m <= max && rank[i]! <= top && m > best) best = m;
      }
      return best;
    };
  }

  protected rowsSelect(where: ReturnType<typeof sql>): ReturnType<typeof sql> {
    return sql`select seq, track_key, key, mode, time_signature, ${sql.join(RANGE_COLUMNS.map((c) => sql.ref(c)))} from analyses where ${where}`;
  }

  /** Applies rows read (a new seq appended, a known one overwritten), then their tags of the tags loaded. */
  protected async apply(rows: Record<string, unknown>[]): Promise<void> {
    const touched: number[] = [];
    for (const row of rows) {
      const seq = Number(row.seq);
      let i = seq < this.slotOf.length ? this.slotOf[seq]! : -1;
      if (i < 0) i = this.append(seq);
      touched.push(i);
      this.keys[i] = smallInt(row.key);
      this.modes[i] = smallInt(row.mode);
      this.meters[i] = smallInt(row.time_signature);
      for (const column of RANGE_COLUMNS) {
        const v = row[column];
        this.ranges.get(column)![i] = v === null || v === undefined ? NaN : Number(v);
      }
      const key = String(row.track_key);
      if (HEX16.test(key)) {
        this.keyHi[i] = Number.parseInt(key.slice(0, 8), 16);
        this.keyLo[i] = Number.parseInt(key.slice(8), 16);
        this.otherKeys.delete(i);
      } else this.otherKeys.set(i, key);
      this.cursor.saw(seq);
    }
    // The rows' tags (of the tags loaded) are replaced whole: cleared, then set from analysis_tags.
    const loaded = this.tagLoaded.flatMap((yes, id) => (yes ? [id] : []));
    if (loaded.length === 0) return;
    for (const id of loaded) for (const i of touched) this.tagMilli[id]![i] = 0xffff;
    const seqs = rows.map((r) => Number(r.seq));
    const tags: { seq: number | string; tag: number; milli: number; rank: number }[] = [];
    for (let at = 0; at < seqs.length; at += LOAD_CHUNK) {
      const part = sql.join(seqs.slice(at, at + LOAD_CHUNK));
      tags.push(...(await sql<(typeof tags)[number]>`select seq, tag, milli, rank from analysis_tags where seq in (${part}) and tag in (${sql.join(loaded)})`.execute(this.database.db)).rows);
    }
    for (const t of tags) {
      const i = this.slotOf[Number(t.seq)];
      const tag = Number(t.tag);
      if (i === undefined || i < 0 || !this.tagLoaded[tag]) continue;
      this.tagMilli[tag]![i] = Number(t.milli);
      this.tagRank[tag]![i] = Math.min(255, Number(t.rank));
    }
  }

  private tagArrays(tag: number): { milli: Uint16Array; rank: Uint8Array } {
    let milli = this.tagMilli[tag];
    if (!milli) {
      milli = new Uint16Array(this.capacity).fill(0xffff);
      this.tagMilli[tag] = milli;
      this.tagRank[tag] = new Uint8Array(this.capacity);
    }
    return { milli, rank: this.tagRank[tag]! };
  }

  private append(seq: number): number {
    if (this.n === this.capacity) this.grow(Math.max(1024, this.capacity * 2));
    if (seq >= this.slotOf.length) {
      const slots = new Int32Array(Math.max(seq + 1, this.slotOf.length * 2, 1024)).fill(-1);
      slots.set(this.slotOf);
      this.slotOf = slots;
    }
    const i = this.n++;
    this.seqs[i] = seq;
    this.slotOf[seq] = i;
    for (const milli of this.tagMilli) if (milli) milli[i] = 0xffff;
    return i;
  }

  private grow(capacity: number): void {
    const grown = <T extends Float64Array | Int16Array | Uint32Array | Uint16Array | Uint8Array>(a: T, make: (n: number) => T, fill?: number): T => {
      const b = make(capacity);
      if (fill !== undefined) b.fill(fill);
      b.set(a);
      return b;
    };
    this.seqs = grown(this.seqs, (n) => new Float64Array(n));
    for (const column of RANGE_COLUMNS) this.ranges.set(column, grown(this.ranges.get(column) ?? new Float64Array(0), (n) => new Float64Array(n), NaN));
    this.keys = grown(this.keys, (n) => new Int16Array(n));
    this.modes = grown(this.modes, (n) => new Int16Array(n));
    this.meters = grown(this.meters, (n) => new Int16Array(n));
    this.keyHi = grown(this.keyHi, (n) => new Uint32Array(n));
    this.keyLo = grown(this.keyLo, (n) => new Uint32Array(n));
    for (let t = 0; t < TAGGER_TAGS; t++) {
      const milli = this.tagMilli[t];
      if (!milli) continue;
      this.tagMilli[t] = grown(milli, (n) => new Uint16Array(n), 0xffff);
      this.tagRank[t] = grown(this.tagRank[t]!, (n) => new Uint8Array(n));
    }
    this.rowColumns = RANGE_COLUMNS.map((column) => ({ name: column === 'duration_ms' ? 'durationMs' : column, values: this.ranges.get(column)! }));
    this.capacity = capacity;
  }
}

function smallInt(v: unknown): number {
  return v === null || v === undefined ? NONE : Number(v);
}

function zeroNull(v: number): number {
  return v === NONE ? 0 : v;
}
