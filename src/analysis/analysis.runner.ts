import { AppError } from '../core/errors';
import type { Logger } from '../core/logger';
import type { AnalysisEngine, StoredAnalysis, TrackMetadata } from '../core/types';
import type { SourceRegistry } from '../sources/registry';
import type { AudioSource } from '../sources/source';
import { checkAnalysis, checkAudioRef } from '../sources/source.validation';
import type { SourceTrackStore } from './store/source-tracks.store';
import type { AnalysisStore } from './store/store';

export interface AnalysisRunnerOptions {
  /** Timeout for fetching a track's audio from its source, ms. */
  fetchTimeoutMs: number;
  /** Audio sources that are no search source (uploads): asked by name like the registry's. */
  audioSources?: readonly AudioSource[];
  /** Where the song ids of music servers are kept with the analyses made from them (SOURCES=subsonic). */
  sourceTracks?: SourceTrackStore;
}

/**
 * The body of one analysis job: find the track's audio through its source, measure it with
 * the engine, store every field. When the track comes from another server of this contract,
 * that server's analysis is stored instead. Returns what the store holds afterwards, so racing
 * jobs for one key all answer with the single stored row.
 */
export class AnalysisRunner {
  constructor(
    private readonly registry: SourceRegistry,
    private readonly engine: AnalysisEngine,
    private readonly store: AnalysisStore,
    private readonly options: AnalysisRunnerOptions,
    private readonly logger: Logger,
  ) {}

  readonly run = async (track: TrackMetadata): Promise<StoredAnalysis> => {
    const already = await this.store.get(track.trackKey);
    if (already) return already;
    const started = Date.now();
    const analysis = await this.analyse(track);
    const inserted = await this.store.save(analysis);
    this.logger.info(
      { trackKey: track.trackKey, source: analysis.source, ms: Date.now() - started, inserted },
      'analysis stored',
    );
    return inserted ? analysis : ((await this.store.get(track.trackKey)) ?? analysis);
  };

  private async analyse(track: TrackMetadata): Promise<StoredAnalysis> {
    const remote = this.registry.analysisSource(track.audio?.source ?? track.source);
    if (remote) {
      const theirs = await remote.fetchAnalysis(track, { signal: AbortSignal.timeout(this.options.fetchTimeoutMs) });
      // Another server's numbers are data from outside: out of range, nothing of them is stored.
      return checkAnalysis(remote.name, { ...theirs, trackKey: track.trackKey, artist: track.artist, trackName: track.trackName });
    }
    return this.analyseAudio(track, track.audio ?? (await this.findAudio(track)));
  }

  /**
   * A new analysis of a stored track, from the audio source its stored analysis came from (its
   * library file, its Deezer preview, …), found again when `track.audio` is not that source's:
   * nothing is stored (the caller replaces). Throws NO_AUDIO_SOURCE when that source is not
   * enabled or no longer has the track's audio.
   */
  async analyseAgain(track: TrackMetadata, sourceName: string): Promise<StoredAnalysis> {
    const source = this.audioSourceNamed(sourceName);
    if (!source) throw new AppError('NO_AUDIO_SOURCE', `the audio source ${sourceName} of this track is not enabled`);
    let audioRef = track.audio?.source === sourceName ? track.audio : undefined;
    if (!audioRef && source.findAudio) {
      const found = await source.findAudio(track, { signal: AbortSignal.timeout(this.options.fetchTimeoutMs) });
      audioRef = (found && checkAudioRef(found).ref) || undefined;
    }
    if (!audioRef) throw new AppError('NO_AUDIO_SOURCE', `${sourceName} no longer has audio for "${track.artist} - ${track.trackName}"`);
    return this.analyseAudio(track, audioRef);
  }

  private audioSourceNamed(name: string): AudioSource | undefined {
    return this.registry.audioSource(name) ?? this.options.audioSources?.find((s) => s.name === name);
  }

  private async analyseAudio(track: TrackMetadata, audioRef: NonNullable<TrackMetadata['audio']>): Promise<StoredAnalysis> {
    const source = this.audioSourceNamed(audioRef.source);
    if (!source) {
      throw new AppError('NO_AUDIO_SOURCE', `the audio source ${audioRef.source} of this track is not enabled`);
    }
    const input = await source.fetchAudio(
      { ...track, audio: audioRef },
      { signal: AbortSignal.timeout(this.options.fetchTimeoutMs) },
    );
    const features = await this.engine.analyse(input);
    await this.rememberSong(track, audioRef);
    return {
      trackKey: track.trackKey,
      artist: track.artist,
      trackName: track.trackName,
      features,
      analysedAt: new Date().toISOString(),
      source: source.name,
    };
  }

  /**
   * A music server's song id, kept with the analysis its audio makes (the version unsaid: a
   * search does not know it; the index records it). A failure to keep it costs a lookup later
   * (playlists find the song by name), never the analysis.
   */
  private async rememberSong(track: TrackMetadata, audioRef: NonNullable<TrackMetadata['audio']>): Promise<void> {
    if (!this.options.sourceTracks || !this.registry.musicServer(audioRef.source)) return;
    try {
      await this.options.sourceTracks.put([{ source: audioRef.source, sourceId: audioRef.locator, trackKey: track.trackKey }]);
    } catch (error) {
      this.logger.warn({ trackKey: track.trackKey, source: audioRef.source, err: error }, 'the song id of this analysis could not be kept');
    }
  }

  /** A metadata-only track: ask every audio source that can look one up, in priority order. */
  private async findAudio(track: TrackMetadata): Promise<NonNullable<TrackMetadata['audio']>> {
    const tried: string[] = [];
    for (const source of this.registry.audioSources()) {
      if (!source.findAudio) continue;
      tried.push(source.name);
      try {
        const found = await source.findAudio(track, { signal: AbortSignal.timeout(this.options.fetchTimeoutMs) });
        const checked = found && checkAudioRef(found);
        if (checked?.dropped.length) this.logger.warn({ source: source.name, dropped: checked.dropped }, 'audio reference outside the contract');
        if (checked?.ref) return checked.ref;
      } catch (error) {
        this.logger.warn({ source: source.name, trackKey: track.trackKey, err: error }, 'audio lookup failed');
      }
    }
    throw new AppError(
      'NO_AUDIO_SOURCE',
      tried.length > 0
        ? `no audio found for "${track.artist} - ${track.trackName}" (tried: ${tried.join(', ')})`
        : `no enabled source can provide audio for "${track.artist} - ${track.trackName}"`,
    );
  }
}
