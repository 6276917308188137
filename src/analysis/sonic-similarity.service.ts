import { AppError, invalidArgument } from '../core/errors';
import type { StoredAnalysis } from '../core/types';
import { MAX_PATH_STEPS, MAX_SOUND_SIMILAR, checkedCount, type SoundService } from './sound.service';
import type { SourceTrackStore } from './store/source-tracks.store';

/** A song of the music server with its analysis and its distance, as OpenSubsonic's sonicMatch carries it. */
export interface SonicSong {
  /** The song's id on the server. */
  id: string;
  analysis: StoredAnalysis;
  /** The normalised cosine distance: 0 the same sound, 1 the most unlike (half the cosine distance, which runs to 2). */
  distance: number;
}

/** getSonicSimilarTracks' default and largest count. */
export const DEFAULT_SONIC_SIMILAR = 10;
/** findSonicPath's default count (songs in the path, both ends included) and its largest. */
export const DEFAULT_SONIC_PATH = 25;
export const MAX_SONIC_PATH = MAX_PATH_STEPS + 2;

/**
 * OpenSubsonic's sonicSimilarity extension over similarity by sound (SoundService), for the songs
 * of the configured music server, named by their ids there: the song ids kept with their analyses
 * (source_tracks) turn ids into track keys and back. Tracks that are no song of the server
 * (analysed from the folder or Deezer, and not found on the server) are left out of the answers.
 */
export class SonicSimilarityService {
  constructor(
    private readonly sound: Pick<SoundService, 'similar' | 'path'>,
    private readonly songs: SourceTrackStore,
    /** The music server's source name (`subsonic`). */
    private readonly source: string,
  ) {}

  /** The songs nearest by sound to the song `id`, nearest first, at most `count`. */
  async similar(id: string, count: number = DEFAULT_SONIC_SIMILAR): Promise<SonicSong[]> {
    const wanted = checkedCount('count', count, DEFAULT_SONIC_SIMILAR, MAX_SOUND_SIMILAR);
    const trackKey = await this.keyOf(id);
    // Some neighbours may be no song of the server: more are asked for than answered.
    const near = await this.sound.similar(trackKey, Math.min(MAX_SOUND_SIMILAR, wanted * 2));
    return (await this.withIds(near.map((m) => ({ analysis: m.analysis, distance: m.distance })))).slice(0, wanted);
  }

  /**
   * A path of songs from `startId` to `endId` by sound, both ends included, at most `count` songs;
   * each with its distance from the start.
   */
  async path(startId: string, endId: string, count: number = DEFAULT_SONIC_PATH): Promise<SonicSong[]> {
    const songs = checkedCount('count', count, DEFAULT_SONIC_PATH, MAX_SONIC_PATH);
    if (songs < 2) throw invalidArgument('count must be at least 2: a path holds its start and its end');
    const [from, to] = [await this.keyOf(startId), await this.keyOf(endId)];
    const steps = await this.sound.path(from, to, songs - 2);
    return this.withIds(steps.map((s) => ({ analysis: s.analysis, distance: s.fromStart })));
  }

  /** The track key of a song, from the ids kept with the analyses; TRACK_NOT_FOUND when it has none. */
  private async keyOf(id: string): Promise<string> {
    const kept = (await this.songs.byIds(this.source, [id])).get(id);
    if (!kept) throw new AppError('TRACK_NOT_FOUND', `song ${id} has no analysis here: npm run index -- --source subsonic analyses the server's songs`);
    return kept.trackKey;
  }

  private async withIds(found: readonly { analysis: StoredAnalysis; distance: number }[]): Promise<SonicSong[]> {
    const ids = await this.songs.byTrackKeys(this.source, found.map((f) => f.analysis.trackKey));
    return found.flatMap((f) => {
      const song = ids.get(f.analysis.trackKey);
      return song ? [{ id: song.sourceId, analysis: f.analysis, distance: Math.round(Math.min(1, Math.max(0, f.distance / 2)) * 10_000) / 10_000 }] : [];
    });
  }
}
