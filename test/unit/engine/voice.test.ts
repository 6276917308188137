import { Stft } from '../../../src/engine/signal.stft';
import { measureVoice } from '../../../src/engine/timbre.voice';
import { denseDistorted, mixIn, sinePad, song, sparsePiano, sungVowels } from '../../../measure/audio/audio-signals';

const SECONDS = 12;
const stft = new Stft();
const voiceOf = (x: Float32Array) => measureVoice(stft.spectrogram(stft.halfRate(x)));

describe('measureVoice: a sung voice in the spectrogram', () => {
  it('when a melody is sung on held vowels with vibrato, then most audible frames read as sung', () => {
    expect(voiceOf(sungVowels(SECONDS)).vocalFrames).toBeGreaterThan(0.6);
  });

  it('when the same melody is sung dead still (no vibrato), then far fewer frames read as sung, though as many are held', () => {
    const still = voiceOf(sungVowels(SECONDS, { vibratoCents: 0 }));
    expect(still.vocalFrames).toBeLessThan(0.3);
    expect(still.heldFrames).toBeGreaterThan(0.6);
  });

  it('when instruments hold their pitch (a pad, a piano, distorted rock, a mix), then almost no frame reads as sung', () => {
    for (const x of [sinePad(SECONDS), sparsePiano(SECONDS), denseDistorted(SECONDS), song(SECONDS, { bpm: 112, tonic: 2, minor: false, bright: true, seed: 5 })]) {
      expect(voiceOf(x).vocalFrames).toBeLessThan(0.15);
    }
  });

  it('when a voice sings over a mix, then the share of sung frames rises well above the mix alone', () => {
    const mix = song(SECONDS, { bpm: 112, tonic: 2, minor: false, bright: true, seed: 5 });
    expect(voiceOf(mixIn(mix, sungVowels(SECONDS, { peak: 0.4 }), 1)).vocalFrames).toBeGreaterThan(voiceOf(mix).vocalFrames + 0.3);
  });
});
