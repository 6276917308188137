import {
  isAnalysisSource,
  isArtworkSource,
  isAudioSource,
  isCatalogSource,
  isClosableSource,
  isMetadataSource,
  isMonitoredSource,
  isMusicServerSource,
  isStartableSource,
  type AnalysisSource,
  type ArtworkSource,
  type AudioSource,
  type CatalogSource,
  type MetadataSource,
  type MusicServerSource,
  type Source,
  type SourceStartOptions,
} from './source';

/**
 * The enabled sources in priority order (the order of SOURCES). Optional abilities are
 * discovered by interface, so a caller asks for "audio sources" rather than for a name.
 */
export class SourceRegistry {
  constructor(private readonly sources: readonly Source[]) {
    const names = new Set<string>();
    for (const s of sources) {
      if (names.has(s.name)) throw new Error(`source ${s.name} is enabled twice`);
      names.add(s.name);
    }
  }

  get names(): string[] {
    return this.sources.map((s) => s.name);
  }

  metadataSources(): MetadataSource[] {
    return this.sources.filter(isMetadataSource);
  }

  /** Sources that list their tracks and find one by key (the library). */
  catalogSources(): CatalogSource[] {
    return this.sources.filter(isCatalogSource);
  }

  catalogSource(name: string): CatalogSource | undefined {
    return this.catalogSources().find((s) => s.name === name);
  }

  audioSources(): AudioSource[] {
    return this.sources.filter(isAudioSource);
  }

  audioSource(name: string): AudioSource | undefined {
    return this.audioSources().find((s) => s.name === name);
  }

  artworkSource(name: string): ArtworkSource | undefined {
    return this.sources.filter(isArtworkSource).find((s) => s.name === name);
  }

  /** The music server of that name (SOURCES=subsonic), when it is enabled. */
  musicServer(name: string): MusicServerSource | undefined {
    return this.sources.filter(isMusicServerSource).find((s) => s.name === name);
  }

  analysisSource(name: string): AnalysisSource | undefined {
    return this.sources.filter(isAnalysisSource).find((s) => s.name === name);
  }

  /** Priority of a source name: lower is preferred; unknown names sort last. */
  priority(name: string): number {
    const i = this.sources.findIndex((s) => s.name === name);
    return i === -1 ? this.sources.length : i;
  }

  async start(options: SourceStartOptions = {}): Promise<void> {
    for (const s of this.sources) if (isStartableSource(s)) await s.start(options);
  }

  /** Sources still getting ready (a library being indexed), with why; empty when all are. */
  pending(): string[] {
    const out: string[] = [];
    for (const s of this.sources) {
      const why = isStartableSource(s) ? s.pending?.() : undefined;
      if (why) out.push(`${s.name}: ${why}`);
    }
    return out;
  }

  /** Sources failing now (their circuit open), each as "name: why"; empty while all answer. */
  degraded(): string[] {
    const out: string[] = [];
    for (const s of this.sources) {
      const why = isMonitoredSource(s) ? s.health() : undefined;
      if (why) out.push(`${s.name}: ${why}`);
    }
    return out;
  }

  async close(): Promise<void> {
    for (const s of this.sources) if (isClosableSource(s)) await s.close();
  }
}
