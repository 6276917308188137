import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ClassifierName, MsdTag } from '../../src/engine/models/model-files';

/** Each classifier's and each tag's mean over some of a window's patches. */
export interface ModelMeans {
  classes: Record<ClassifierName, number>;
  tags: Record<MsdTag, number>;
  /** The tagger's 200-unit layer (absent from caches written before it was kept). */
  embedding?: number[];
}

/** What the models said of one clip's analysis window: the means over the patches used. */
export interface CachedModels extends ModelMeans {
  patches: { used: number; of: number };
  /**
   * The means over the window's first and its last ⌊n/2⌋ patches, when the models read all n ≥ 2
   * (absent from caches written before they were kept).
   */
  halves?: ModelMeans[];
}

/** One clip: the file it was read from (size and mtime: a changed file is measured again) and what was measured. */
export interface CachedClip {
  size: number;
  mtimeMs: number;
  models?: CachedModels;
  /**
   * The engine's raw measurements (the formulas' inputs), tagged with the engine that made them,
   * of the window and of its first and second half (none for a window under 6 s; absent from
   * caches written before they were kept).
   */
  signal?: { engine: string; inputs: unknown; halves?: unknown[] };
}

/**
 * A corpus's per-clip measurements in one JSON file (`<dir>/<corpus>.json`), written after each
 * clip (to a temporary file, then renamed), so an interrupted run resumes where it stopped.
 */
export class DescriptorCache {
  private readonly clips: Record<string, CachedClip>;

  constructor(private readonly file: string) {
    this.clips = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { clips: Record<string, CachedClip> }).clips : {};
  }

  static forCorpus(dir: string, corpus: string): DescriptorCache {
    mkdirSync(dir, { recursive: true });
    return new DescriptorCache(path.join(dir, `${corpus}.json`));
  }

  /** The clip's entry, emptied if the file changed since it was measured. */
  get(name: string, audioFile: string): CachedClip {
    const { size, mtimeMs } = statSync(audioFile);
    const hit = this.clips[name];
    if (hit && hit.size === size && hit.mtimeMs === mtimeMs) return hit;
    return (this.clips[name] = { size, mtimeMs });
  }

  save(): void {
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify({ clips: this.clips }));
    renameSync(tmp, this.file);
  }
}
