/**
 * Generated audio for the engine's descriptor and decoder tests and for the benchmarks:
 * speech-like formant signals, pads, dense distorted rock, simple songs in a key, crowd noise
 * with reverb, WAV encoding. Every generator is deterministic (seeded), so a failing test fails
 * the same way twice.
 */

export const RATE = 44100;

// Module-local bindings: under Jest's vm sandbox every global lookup (Math.sin in a loop over
// a million samples) is intercepted and several times slower than a local one.
const { PI, abs, cos, exp, floor, imul, max, min, round, sin, tanh } = Math;

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = imul(t ^ (t >>> 15), t | 1);
    t ^= t + imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Scales a signal so that its peak is `peak` (linear). */
export function normalise(signal: Float32Array, peak: number): Float32Array {
  let top = 0;
  for (let i = 0; i < signal.length; i++) top = max(top, abs(signal[i]!));
  if (top === 0) return signal;
  const g = peak / top;
  for (let i = 0; i < signal.length; i++) signal[i]! *= g;
  return signal;
}

/** Two-pole resonator (formant) with centre `freq` and bandwidth `bw`, applied in place. */
function resonate(x: Float32Array, freq: number, bw: number, from = 0, to = x.length): void {
  const r = exp((-PI * bw) / RATE);
  const c = 2 * r * cos((2 * PI * freq) / RATE);
  const gain = 1 - r;
  let y1 = 0;
  let y2 = 0;
  for (let i = from; i < to; i++) {
    const y = gain * x[i]! + c * y1 - r * r * y2;
    y2 = y1;
    y1 = y;
    x[i] = y;
  }
}

const VOWELS: ReadonlyArray<readonly [number, number, number]> = [
  [730, 1090, 2440], // a
  [270, 2290, 3010], // i
  [300, 870, 2240], // u
  [530, 1840, 2480], // e
  [570, 840, 2410], // o
  [440, 1020, 2240], // schwa
];

/**
 * A speech-like signal: phrases of syllables (a consonant noise burst or plosive, then a voiced
 * vowel: a glottal pulse train through three formant resonators), 3–6 syllables per second
 * with a raised-cosine level contour, a falling pitch contour per phrase with jitter, and
 * pauses of 0.2–0.7 s between phrases.
 */
export function speechLike(seconds: number, options: { seed?: number; f0?: number } = {}): Float32Array {
  const random = rng(options.seed ?? 1);
  const baseF0 = options.f0 ?? 120;
  const out = new Float32Array(round(seconds * RATE));
  let t = 0.1 * RATE;
  while (t < out.length) {
    const phraseSyllables = 4 + floor(random() * 8);
    const phraseF0 = baseF0 * (0.9 + random() * 0.25);
    for (let s = 0; s < phraseSyllables && t < out.length; s++) {
      const progress = s / phraseSyllables;
      // Consonant: a fricative (high-passed noise) or a short plosive burst.
      const consonant = round((0.03 + random() * 0.07) * RATE);
      const cStart = floor(t);
      const cEnd = min(out.length, cStart + consonant);
      const fricative = random() < 0.6;
      let prev = 0;
      for (let i = cStart; i < cEnd; i++) {
        const n = random() * 2 - 1;
        const hp = n - prev;
        prev = n;
        const env = sin((PI * (i - cStart)) / consonant);
        out[i]! += (fricative ? 0.15 * hp : 0.3 * n * exp((-(i - cStart) / consonant) * 6)) * env;
      }
      // Vowel.
      const vowelLength = round((0.09 + random() * 0.16) * RATE);
      const vStart = cEnd;
      const vEnd = min(out.length, vStart + vowelLength);
      const vowel = VOWELS[floor(random() * VOWELS.length)]!;
      const f0Start = phraseF0 * (1.15 - 0.3 * progress) * (0.95 + random() * 0.1);
      const f0End = f0Start * (0.85 + random() * 0.25);
      const source = new Float32Array(vEnd - vStart);
      let phase = 0;
      for (let i = 0; i < source.length; i++) {
        const f0 = f0Start + ((f0End - f0Start) * i) / source.length;
        phase += f0 / RATE;
        if (phase >= 1) {
          phase -= 1;
          source[i] = 1;
        }
      }
      let lp = 0;
      for (let i = 0; i < source.length; i++) {
        lp = 0.9 * lp + 0.1 * source[i]!;
        source[i] = lp;
      }
      const mix = new Float32Array(source.length);
      for (const [k, formant] of vowel.entries()) {
        const band = Float32Array.from(source);
        resonate(band, formant * (0.95 + random() * 0.1), 60 + 40 * k);
        for (let i = 0; i < mix.length; i++) mix[i]! += band[i]! * [1, 0.6, 0.3][k]!;
      }
      for (let i = 0; i < mix.length; i++) {
        const env = sin((PI * i) / mix.length) ** 0.7;
        out[vStart + i]! += mix[i]! * env * 40;
      }
      t = vEnd + random() * 0.04 * RATE;
    }
    t += (0.2 + random() * 0.5) * RATE;
  }
  return normalise(out, 0.5);
}

/** Frequency of a MIDI note. */
export const midiHz = (note: number): number => 440 * 2 ** ((note - 69) / 12);

/** A quiet, slow sine pad: sustained triads (major or minor) changing every 4 s, soft attacks. */
export function sinePad(seconds: number, options: { root?: number; minor?: boolean; peak?: number } = {}): Float32Array {
  const out = new Float32Array(round(seconds * RATE));
  const root = options.root ?? 57;
  const third = options.minor ? 3 : 4;
  const progression = [0, 5, 7, 0, -4, 5];
  const chordSamples = 4 * RATE;
  for (let i = 0; i < out.length; i++) {
    const chord = floor(i / chordSamples);
    const within = (i % chordSamples) / chordSamples;
    const env = min(1, within * 4) * min(1, (1 - within) * 4);
    const base = root + progression[chord % progression.length]!;
    let v = 0;
    for (const interval of [0, third, 7, 12]) v += sin((2 * PI * midiHz(base + interval) * i) / RATE);
    out[i] = v * env;
  }
  return normalise(out, options.peak ?? 0.08);
}

function addKick(out: Float32Array, at: number, gain: number): void {
  const len = min(out.length - at, round(0.25 * RATE));
  let phase = 0;
  for (let i = 0; i < len; i++) {
    const f = 50 + 100 * exp(-i / (0.03 * RATE));
    phase += (2 * PI * f) / RATE;
    out[at + i]! += gain * sin(phase) * exp(-i / (0.08 * RATE));
  }
}

function addNoiseHit(out: Float32Array, at: number, gain: number, decay: number, random: () => number, highPass: boolean): void {
  const len = min(out.length - at, round(decay * 5 * RATE));
  let prev = 0;
  for (let i = 0; i < len; i++) {
    const n = random() * 2 - 1;
    const v = highPass ? n - prev : n;
    prev = n;
    out[at + i]! += gain * v * exp(-i / (decay * RATE));
  }
}

/**
 * A loud, dense, fast, distorted track: kick on every beat, snare on 2 and 4, sixteenth-note
 * hi-hats, and sawtooth power chords driven hard into a tanh clipper, at 0.99 peak.
 */
export function denseDistorted(seconds: number, options: { bpm?: number; seed?: number } = {}): Float32Array {
  const random = rng(options.seed ?? 7);
  const bpm = options.bpm ?? 172;
  const out = new Float32Array(round(seconds * RATE));
  const beat = (60 / bpm) * RATE;
  const roots = [40, 40, 43, 45, 38, 40, 43, 47];
  for (let i = 0; i < out.length; i++) {
    const b = floor(i / beat);
    const root = roots[floor(b / 2) % roots.length]!;
    let v = 0;
    for (const interval of [0, 7, 12]) {
      const f = midiHz(root + interval);
      v += 2 * (((i * f) / RATE) % 1) - 1;
    }
    out[i] = tanh(6 * v) * 0.5;
  }
  for (let b = 0; b * beat < out.length; b++) {
    const at = round(b * beat);
    addKick(out, at, 0.9);
    if (b % 2 === 1) addNoiseHit(out, at, 0.8, 0.06, random, false);
    for (let s = 0; s < 4; s++) {
      const hat = round(at + (s * beat) / 4);
      if (hat < out.length) addNoiseHit(out, hat, 0.25, 0.015, random, true);
    }
  }
  for (let i = 0; i < out.length; i++) out[i] = tanh(1.5 * out[i]!);
  return normalise(out, 0.99);
}

/**
 * A simple song in a key: drums (unless `drums` is false), a bass line on the chord roots and
 * sustained chords of the key's cadence. `bright` uses
 * sawtooth voices an octave up with a high melody; otherwise soft triangle voices low down.
 */
export function song(
  seconds: number,
  options: { bpm: number; tonic: number; minor: boolean; bright: boolean; drums?: boolean; seed?: number },
): Float32Array {
  const random = rng(options.seed ?? 3);
  const out = new Float32Array(round(seconds * RATE));
  const beat = (60 / options.bpm) * RATE;
  // Cadential progressions (I–IV–V–I, i–iv–V–i with the raised leading tone): one key only.
  const majorChords: ReadonlyArray<readonly number[]> = [[0, 4, 7], [5, 9, 12], [7, 11, 14], [0, 4, 7]];
  const minorChords: ReadonlyArray<readonly number[]> = [[0, 3, 7], [5, 8, 12], [7, 11, 14], [0, 3, 7]];
  const chords = options.minor ? minorChords : majorChords;
  const base = (options.bright ? 60 : 48) + options.tonic;
  const voice = (phase: number): number =>
    options.bright ? 2 * (phase % 1) - 1 : 1 - 4 * abs((phase % 1) - 0.5);
  const scale = options.minor ? [0, 2, 3, 5, 7, 8, 10, 12] : [0, 2, 4, 5, 7, 9, 11, 12];
  let melodyNote = 0;
  for (let i = 0; i < out.length; i++) {
    const b = i / beat;
    const bar = floor(b / 4);
    const chord = chords[bar % chords.length]!;
    const inBeat = b % 1;
    let v = 0;
    for (const interval of chord) v += 0.25 * voice((i * midiHz(base + interval)) / RATE);
    v += 0.5 * sin((2 * PI * midiHz(base - 12 + chord[0]!) * i) / RATE) * exp(-inBeat * 2);
    if (options.bright) {
      if (i % round(beat / 2) === 0) melodyNote = scale[floor(random() * scale.length)]!;
      v += 0.3 * voice((i * midiHz(base + 12 + melodyNote)) / RATE) * exp(-((b * 2) % 1) * 3);
    }
    out[i] = v;
  }
  if (options.drums !== false) {
    for (let b = 0; b * beat < out.length; b++) {
      const at = round(b * beat);
      if (b % 2 === 0) addKick(out, at, 1.2);
      else addNoiseHit(out, at, 0.6, 0.05, random, false);
      addNoiseHit(out, at, 0.15, 0.02, random, true);
      const off = round(at + beat / 2);
      if (off < out.length) addNoiseHit(out, off, 0.15, 0.02, random, true);
    }
  }
  return normalise(out, options.bright ? 0.9 : 0.35);
}

/**
 * Reverb (Schroeder: four parallel combs and two allpasses, ~2 s decay) and an audience: a
 * murmur of band-passed noise with a slowly wandering level, applause (dense random claps)
 * and cheers, about 12 dB under the music.
 */
export function liveVersion(dry: Float32Array, options: { seed?: number } = {}): Float32Array {
  const random = rng(options.seed ?? 11);
  const wet = new Float32Array(dry.length);
  for (const [delayMs, g] of [[29.7, 0.8], [37.1, 0.79], [41.1, 0.78], [43.7, 0.77]] as const) {
    const d = round((delayMs / 1000) * RATE);
    const buf = new Float32Array(dry.length);
    for (let i = 0; i < dry.length; i++) buf[i] = dry[i]! + (i >= d ? g * buf[i - d]! : 0);
    for (let i = 0; i < dry.length; i++) wet[i]! += buf[i]! * 0.25;
  }
  for (const [delayMs, g] of [[5, 0.7], [1.7, 0.7]] as const) {
    const d = round((delayMs / 1000) * RATE);
    const x = Float32Array.from(wet);
    for (let i = 0; i < wet.length; i++) {
      wet[i] = -g * x[i]! + (i >= d ? x[i - d]! + g * wet[i - d]! : 0);
    }
  }
  let peak = 0;
  for (let i = 0; i < dry.length; i++) peak = max(peak, abs(dry[i]!));
  const out = new Float32Array(dry.length);
  let murmur = 0;
  let level = 0.5;
  for (let i = 0; i < out.length; i++) {
    if (i % 4410 === 0) level = min(1, max(0.2, level + (random() - 0.5) * 0.3));
    const n = random() * 2 - 1;
    murmur = 0.97 * murmur + 0.03 * n;
    out[i] = dry[i]! * 0.7 + wet[i]! * 0.5 + peak * 0.25 * level * murmur * 6;
  }
  const claps = round((out.length / RATE) * 15);
  for (let c = 0; c < claps; c++) {
    addNoiseHit(out, floor(random() * out.length), peak * 0.08, 0.008, random, true);
  }
  return normalise(out, peak);
}

/** White noise at a given peak. */
export function noise(seconds: number, peak: number, seed = 5): Float32Array {
  const random = rng(seed);
  const out = new Float32Array(round(seconds * RATE));
  for (let i = 0; i < out.length; i++) out[i] = (random() * 2 - 1) * peak;
  return out;
}

/** A 16-bit PCM WAV file of the given channels. */
export function encodeWav(channels: readonly Float32Array[], sampleRate: number): Uint8Array {
  const frames = channels[0]?.length ?? 0;
  const dataBytes = frames * channels.length * 2;
  const buffer = new ArrayBuffer(44 + dataBytes);
  const view = new DataView(buffer);
  const text = (offset: number, s: string): void => {
    for (let i = 0; i < s.length; i++) view.setUint8(offset + i, s.charCodeAt(i));
  };
  text(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, channels.length, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * channels.length * 2, true);
  view.setUint16(32, channels.length * 2, true);
  view.setUint16(34, 16, true);
  text(36, 'data');
  view.setUint32(40, dataBytes, true);
  const pcm = new Int16Array(buffer, 44, frames * channels.length);
  const n = channels.length;
  for (let c = 0; c < n; c++) {
    const channel = channels[c]!;
    for (let i = 0; i < frames; i++) pcm[i * n + c] = round(max(-1, min(1, channel[i]!)) * 32767);
  }
  return new Uint8Array(buffer);
}

/**
 * Sparse slow piano: one soft note or dyad every beat at a slow tempo, struck (fast attack) and
 * left to decay over a second, with silence-like gaps; a few harmonics as a piano has.
 */
export function sparsePiano(seconds: number, options: { bpm?: number; minor?: boolean; seed?: number } = {}): Float32Array {
  const random = rng(options.seed ?? 17);
  const bpm = options.bpm ?? 60;
  const out = new Float32Array(round(seconds * RATE));
  const beat = (60 / bpm) * RATE;
  const scale = options.minor === false ? [0, 2, 4, 7, 9, 12] : [0, 2, 3, 7, 8, 12];
  for (let b = 0; b * beat < out.length; b++) {
    const at = round(b * beat);
    const notes = [57 + scale[floor(random() * scale.length)]!];
    if (b % 4 === 0) notes.push(45);
    for (const n of notes) {
      const f = midiHz(n);
      const len = min(out.length - at, round(2 * RATE));
      for (let i = 0; i < len; i++) {
        const t = i / RATE;
        const env = min(1, t / 0.004) * exp(-t / 0.5);
        out[at + i]! += env * (sin(2 * PI * f * t) + 0.4 * sin(4 * PI * f * t) * exp(-t) + 0.2 * sin(6 * PI * f * t) * exp(-2 * t));
      }
    }
  }
  return normalise(out, 0.25);
}

/** The same signal `db` quieter and through a two-pole low-pass at `hz` (a muffled, distant playback). */
export function quieterDarker(signal: Float32Array, db: number, hz = 1000): Float32Array {
  const out = new Float32Array(signal.length);
  const a = exp((-2 * PI * hz) / RATE);
  const gain = 10 ** (-db / 20);
  let y1 = 0;
  let y2 = 0;
  for (let i = 0; i < signal.length; i++) {
    y1 = (1 - a) * signal[i]! + a * y1;
    y2 = (1 - a) * y1 + a * y2;
    out[i] = gain * y2;
  }
  return out;
}

/** The same signal driven into a tanh clipper (`drive` times) with sixteenth-note hi-hats added at `bpm`. */
export function roughen(signal: Float32Array, bpm: number, options: { drive?: number; seed?: number } = {}): Float32Array {
  const random = rng(options.seed ?? 23);
  const drive = options.drive ?? 8;
  let peak = 0;
  for (let i = 0; i < signal.length; i++) peak = max(peak, abs(signal[i]!));
  const out = Float32Array.from(signal, (x) => tanh((drive * x) / (peak || 1)));
  const sixteenth = (60 / bpm / 4) * RATE;
  for (let s = 0; s * sixteenth < out.length; s++) addNoiseHit(out, round(s * sixteenth), 0.3, 0.012, random, true);
  return normalise(out, 0.95);
}

/**
 * A sung melody: held vowels (a glottal pulse train through three formant resonators) on the
 * notes of a major scale, each 0.4–0.9 s, with vibrato (5.5 Hz, ±`vibratoCents`, fading in over
 * the first 150 ms) and a slight scoop into each note, short breaths between phrases.
 * `vibratoCents` 0 sings as a machine would: every note held dead still.
 */
export function sungVowels(seconds: number, options: { seed?: number; root?: number; vibratoCents?: number; peak?: number } = {}): Float32Array {
  const random = rng(options.seed ?? 3);
  const root = options.root ?? 57;
  const depth = options.vibratoCents ?? 50;
  const out = new Float32Array(round(seconds * RATE));
  const scale = [0, 2, 4, 5, 7, 9, 11, 12];
  let t = round(0.05 * RATE);
  let phase = 0;
  let note = 0;
  while (t < out.length) {
    const length = min(out.length - t, round((0.4 + random() * 0.5) * RATE));
    note = max(0, min(scale.length - 1, note + floor(random() * 5) - 2));
    const f0 = midiHz(root + scale[note]!);
    const vowel = VOWELS[floor(random() * VOWELS.length)]!;
    const source = new Float32Array(length);
    const rate = 5 + random();
    for (let i = 0; i < length; i++) {
      const s = i / RATE;
      const scoop = -60 * exp(-s / 0.05);
      const cents = scoop + (depth > 0 ? depth * min(1, s / 0.15) * sin(2 * PI * rate * s) : 0);
      phase += (f0 * 2 ** (cents / 1200)) / RATE;
      if (phase >= 1) {
        phase -= 1;
        source[i] = 1;
      }
    }
    let lp = 0;
    for (let i = 0; i < length; i++) {
      lp = 0.9 * lp + 0.1 * source[i]!;
      source[i] = lp;
    }
    for (const [k, formant] of vowel.entries()) {
      const band = Float32Array.from(source);
      resonate(band, formant, 60 + 40 * k);
      for (let i = 0; i < length; i++) {
        const env = min(1, i / (0.03 * RATE)) * min(1, (length - i) / (0.05 * RATE));
        out[t + i]! += band[i]! * [1, 0.6, 0.3][k]! * env * 40;
      }
    }
    t += length + (random() < 0.2 ? round(0.25 * RATE) : round(0.02 * RATE));
  }
  return normalise(out, options.peak ?? 0.5);
}

/** Joins signals end to end: a song whose level, key and tempo change at known times. */
export function concat(...parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Adds `b` scaled by `gain` to a copy of `a` (the shorter length). */
export function mixIn(a: Float32Array, b: Float32Array, gain: number): Float32Array {
  const out = a.slice(0, min(a.length, b.length));
  for (let i = 0; i < out.length; i++) out[i]! += gain * b[i]!;
  return out;
}
