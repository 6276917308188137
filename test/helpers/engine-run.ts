import type { AudioFeatures } from '../../src/core/types';
import { type WindowAudio, createEngine } from '../../src/engine/engine';
import { LoudnessMeter, integratedLoudness } from '../../src/engine/loudness';
import { type RhythmResult, analyseRhythm } from '../../src/engine/rhythm';
import { onsetEnvelopes } from '../../src/engine/rhythm.onsets';
import { Stft, type Spectrogram } from '../../src/engine/signal.stft';
import { type TonalResult, analyseTonal } from '../../src/engine/tonal';
import { type Chroma, chromaOf } from '../../src/engine/tonal.chroma';

const engine = createEngine({ windowSeconds: 30 });
const stft = new Stft();

/**
 * The engine's whole analysis of a generated mono 44.1 kHz signal, as if decoded from a file that
 * starts with it (or, with `file`, from one whose window it is).
 */
export function analyse(samples: Float32Array, file: Partial<Pick<WindowAudio, 'offsetSeconds' | 'durationSeconds' | 'wholeTrack'>> = {}): AudioFeatures {
  const meter = new LoudnessMeter(44100);
  meter.push([samples]);
  const powers = meter.subBlockPowers();
  return engine.analyseWindow({
    samples,
    offsetSeconds: 0,
    durationSeconds: samples.length / 44100,
    loudness: integratedLoudness(powers),
    subBlockPowers: powers,
    ...file,
  });
}

/** The shared spectrogram and chroma of a 44.1 kHz signal (copies: the Stft's buffers are reused). */
export function framesOf(samples: Float32Array): { spec: Spectrogram; chroma: Chroma } {
  const s = stft.spectrogram(stft.halfRate(samples));
  const spec = { ...s, mags: Float32Array.from(s.mags) };
  return { spec, chroma: chromaOf(spec) };
}

/** The rhythm stage alone; with `track`, as the window of a longer file whose blocks named these tempi. */
export function rhythmOf(samples: Float32Array, track?: Parameters<typeof analyseRhythm>[3]): RhythmResult {
  const { spec, chroma } = framesOf(samples);
  return analyseRhythm(onsetEnvelopes(spec), chroma, analyseTonal(chroma).tonality, track);
}

/** The key stage alone. */
export function tonalOf(samples: Float32Array): TonalResult {
  return analyseTonal(framesOf(samples).chroma);
}
