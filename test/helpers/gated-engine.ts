import type { AnalysisEngine, AudioFeatures, AudioInput, AudioProbe } from '../../src/core/types';

/**
 * The real engine with a gate in front of analyse(): while held, analyses wait (a test sees them
 * QUEUED or PROCESSING for as long as it likes), and once released they run on the real engine.
 * The features still come from the audio.
 */
export class GatedEngine implements AnalysisEngine {
  private gate: Promise<void> | undefined;
  private open: (() => void) | undefined;

  constructor(private readonly inner: AnalysisEngine) {}

  /** Holds every analysis that starts from now until release() is called. */
  hold(): void {
    if (this.gate) return;
    this.gate = new Promise((resolve) => (this.open = resolve));
  }

  release(): void {
    this.open?.();
    this.gate = undefined;
    this.open = undefined;
  }

  async analyse(input: AudioInput, options?: { signal?: AbortSignal }): Promise<AudioFeatures> {
    await this.gate;
    return this.inner.analyse(input, options);
  }

  probe(input: AudioInput): Promise<AudioProbe> {
    return this.inner.probe(input);
  }

  async close(): Promise<void> {
    this.release();
    await this.inner.close();
  }
}
