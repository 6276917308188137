import { sql, type Kysely } from 'kysely';
import type { Database, DatabaseSchema } from '../../db/database';

/** A music server's song by its id there: the track its names give, and its file's version. */
export interface SourceTrack {
  /** The source's name (`subsonic`). */
  source: string;
  /** The song's id on the server. */
  sourceId: string;
  trackKey: string;
  /**
   * What changes when the song's file does (its `created` time and size); null when not known
   * (the song was found by a search, not listed by an index). Written as undefined: kept as
   * stored while the song still gives the same track key, null otherwise.
   */
  version?: string | null;
}

/** Songs of music servers by id, kept with the analyses made from them (migration 0014). */
export interface SourceTrackStore {
  /** Records songs, replacing what was recorded of the same (source, id). */
  put(tracks: readonly SourceTrack[]): Promise<void>;
  /** The recorded songs of these ids, by id. */
  byIds(source: string, ids: readonly string[]): Promise<Map<string, SourceTrack>>;
  /** A recorded song of each of these track keys (the most recently recorded where several give one key), by track key. */
  byTrackKeys(source: string, trackKeys: readonly string[]): Promise<Map<string, SourceTrack>>;
  /** Forgets songs (the server no longer has them). */
  remove(source: string, ids: readonly string[]): Promise<void>;
}

/** Rows per statement (5 parameters each). */
const ROWS_PER_STATEMENT = 150;
/** Keys per `in (…)` read. */
const KEYS_PER_READ = 500;

/** The table source_tracks on SQLite or Postgres. */
export class SqlSourceTrackStore implements SourceTrackStore {
  constructor(
    private readonly database: Pick<Database, 'db'>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async put(tracks: readonly SourceTrack[]): Promise<void> {
    if (tracks.length === 0) return;
    // One row per (source, id): the last of the batch wins, as separate writes would.
    const unique = [...new Map(tracks.map((t) => [`${t.source}\u0000${t.sourceId}`, t])).values()];
    const write = async (db: Kysely<DatabaseSchema>): Promise<void> => {
      const at = this.now().toISOString();
      for (let i = 0; i < unique.length; i += ROWS_PER_STATEMENT) {
        const rows = unique.slice(i, i + ROWS_PER_STATEMENT);
        await db
          .insertInto('source_tracks')
          .values(rows.map((t) => ({ source: t.source, source_id: t.sourceId, track_key: t.trackKey, version: t.version ?? null, updated_at: at })))
          .onConflict((oc) =>
            oc.columns(['source', 'source_id']).doUpdateSet({
              track_key: (eb) => eb.ref('excluded.track_key'),
              // A version left unsaid keeps the stored one while the song still names the same track.
              version: sql<string | null>`case when excluded.version is null and source_tracks.track_key = excluded.track_key then source_tracks.version else excluded.version end`,
              updated_at: (eb) => eb.ref('excluded.updated_at'),
            }),
          )
          .execute();
      }
    };
    if (unique.length <= ROWS_PER_STATEMENT) await write(this.database.db);
    else await this.database.db.transaction().execute(write);
  }

  async byIds(source: string, ids: readonly string[]): Promise<Map<string, SourceTrack>> {
    const out = new Map<string, SourceTrack>();
    for (let i = 0; i < ids.length; i += KEYS_PER_READ) {
      const rows = await this.database.db
        .selectFrom('source_tracks')
        .select(['source_id', 'track_key', 'version'])
        .where('source', '=', source)
        .where('source_id', 'in', ids.slice(i, i + KEYS_PER_READ))
        .execute();
      for (const r of rows) out.set(r.source_id, { source, sourceId: r.source_id, trackKey: r.track_key, version: r.version });
    }
    return out;
  }

  async byTrackKeys(source: string, trackKeys: readonly string[]): Promise<Map<string, SourceTrack>> {
    const out = new Map<string, { track: SourceTrack; at: string }>();
    for (let i = 0; i < trackKeys.length; i += KEYS_PER_READ) {
      const rows = await this.database.db
        .selectFrom('source_tracks')
        .select(['source_id', 'track_key', 'version', 'updated_at'])
        .where('source', '=', source)
        .where('track_key', 'in', trackKeys.slice(i, i + KEYS_PER_READ))
        .execute();
      for (const r of rows) {
        const held = out.get(r.track_key);
        // The latest recorded wins; the smaller id breaks a tie, so the answer is stable.
        if (!held || r.updated_at > held.at || (r.updated_at === held.at && r.source_id < held.track.sourceId)) {
          out.set(r.track_key, { track: { source, sourceId: r.source_id, trackKey: r.track_key, version: r.version }, at: r.updated_at });
        }
      }
    }
    return new Map([...out].map(([k, v]) => [k, v.track]));
  }

  async remove(source: string, ids: readonly string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += KEYS_PER_READ) {
      await this.database.db.deleteFrom('source_tracks').where('source', '=', source).where('source_id', 'in', ids.slice(i, i + KEYS_PER_READ)).execute();
    }
  }
}
