import { isAppError } from '../core/errors';
import type { StoredAnalysis } from '../core/types';
import type { MusicServerSource, ServerSong, SourceCallContext } from '../sources/source';
import { MAX_BATCH_KEYS, type AnalysisService } from './analysis.service';
import type { ReanalyseService } from './reanalyse.service';
import type { SourceTrack, SourceTrackStore } from './store/source-tracks.store';

/** What an index of the whole server has to do. */
export interface ServerIndexPlan {
  /** Songs the server lists. */
  total: number;
  /** Songs whose track is stored and whose file has not changed since (or was never indexed): nothing to do. */
  skipped: number;
  /** Songs whose track is not stored yet (one per track key; the other songs of a key follow it). */
  todo: ServerSong[];
  /** Songs whose track was analysed from them and whose file changed on the server since. */
  changed: ServerSong[];
}

/**
 * The index of a whole music server (`npm run index -- --source subsonic`): every song listed,
 * each compared with what is kept of it (its id, track key and version in source_tracks) and
 * with the store. A song already analysed (from the server, or the same recording found
 * elsewhere: by track key) and unchanged is skipped; a song whose file changed since it was
 * analysed from the server is analysed again and its analysis replaced; the rest are analysed.
 * Each song's id and version are kept as it succeeds, so a stopped run goes on where it stopped.
 */
export class ServerIndex {
  /** Songs analysed, and analysed again, by this index. */
  analysed = 0;
  reanalysed = 0;
  /** The other songs giving the track key of a song to analyse (a track on an album and a compilation). */
  private readonly followers = new Map<string, ServerSong[]>();

  constructor(
    private readonly server: MusicServerSource,
    private readonly songs: SourceTrackStore,
    private readonly analysis: Pick<AnalysisService, 'storedMany' | 'analyseTrack'>,
    private readonly reanalyse: Pick<ReanalyseService, 'redoFrom'>,
  ) {}

  async plan(context: SourceCallContext): Promise<ServerIndexPlan> {
    const all: ServerSong[] = [];
    for await (const page of this.server.songs(context)) all.push(...page);
    const kept = await this.songs.byIds(this.server.name, all.map((s) => s.track.sourceId!));
    const stored = await this.storedOf([...new Set(all.map((s) => s.track.trackKey))]);
    const plan: ServerIndexPlan = { total: all.length, skipped: 0, todo: [], changed: [] };
    const planned = new Set<string>();
    const unchanged: SourceTrack[] = [];
    for (const song of all) {
      const key = song.track.trackKey;
      if (planned.has(key)) {
        this.followers.get(key)?.push(song);
        continue;
      }
      const analysedFrom = stored.get(key);
      const known = kept.get(song.track.sourceId!);
      const changed =
        analysedFrom === this.server.name && known?.trackKey === key && typeof known.version === 'string' && known.version !== song.version;
      if (analysedFrom === undefined || changed) {
        planned.add(key);
        this.followers.set(key, []);
        (changed ? plan.changed : plan.todo).push(song);
        continue;
      }
      plan.skipped++;
      if (known?.trackKey !== key || known.version !== song.version) unchanged.push(this.row(song));
    }
    await this.songs.put(unchanged);
    return plan;
  }

  /** Analyses a song's track (the analysis service's jobs), then keeps its id and version and those of the songs that follow it. */
  async analyse(song: ServerSong): Promise<void> {
    await this.kept(song, () => this.analysis.analyseTrack(song.track));
    this.analysed++;
  }

  /** Analyses a changed song again and replaces its track's analysis. */
  async redo(song: ServerSong): Promise<void> {
    await this.kept(song, () => this.reanalyse.redoFrom(song.track));
    this.reanalysed++;
  }

  private async kept(song: ServerSong, analyse: () => Promise<StoredAnalysis>): Promise<void> {
    try {
      await analyse();
    } catch (error) {
      // A song gone from the server since it was listed: nothing of it is kept.
      if (isAppError(error) && error.code === 'TRACK_NOT_FOUND') await this.songs.remove(this.server.name, [song.track.sourceId!]);
      throw error;
    }
    await this.songs.put([song, ...(this.followers.get(song.track.trackKey) ?? [])].map((s) => this.row(s)));
  }

  private row(song: ServerSong): SourceTrack {
    return { source: this.server.name, sourceId: song.track.sourceId!, trackKey: song.track.trackKey, version: song.version };
  }

  /** The source each stored key was analysed from (all a plan needs: a whole server's analyses are not held). */
  private async storedOf(keys: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (let i = 0; i < keys.length; i += MAX_BATCH_KEYS) {
      const batch = keys.slice(i, i + MAX_BATCH_KEYS);
      (await this.analysis.storedMany(batch, { segments: false })).forEach((a, j) => a && out.set(batch[j]!, a.source));
    }
    return out;
  }
}
