/**
 * Generated test music with known tempo, meter and key (44.1 kHz mono Float32), built by
 * additive synthesis so tests never need recordings:
 * - `clickTrack`: short clicks on every beat, optionally accented on bar starts;
 * - `drumPattern`: kick, snare and eighth-note hi-hats in 3/4 or 4/4, with a bass note on
 *   each bar start and a chord change every bar so that the bar is audible as on real records;
 * - `chordProgression`: harmonic-rich triads and a bass line in a known major or minor key.
 * All are deterministic for a given seed.
 */
import { rng } from './audio-signals';

// Local bindings: under Jest's vm sandbox a global lookup per sample is several times slower.
const { PI, abs, cos, exp, floor, min, round, sin } = Math;
export const SAMPLE_RATE = 44100;

/** mulberry32: a small deterministic PRNG (audio-signals.ts's `rng`, under the name these generators use). */
export const seeded: (seed: number) => () => number = rng;

export const midiToHz = (note: number): number => 440 * 2 ** ((note - 69) / 12);

/** Scales `signal` in place so its peak is `peak` (default -3 dBFS). */
export function normalizePeak(signal: Float32Array, peak = 0.7): Float32Array {
  let top = 0;
  for (let i = 0; i < signal.length; i++) {
    const a = abs(signal[i]!);
    if (a > top) top = a;
  }
  if (top > 0) for (let i = 0; i < signal.length; i++) signal[i] = (signal[i]! * peak) / top;
  return signal;
}

function addClick(out: Float32Array, at: number, gain: number): void {
  const len = round(0.02 * SAMPLE_RATE);
  for (let i = 0; i < len && at + i < out.length; i++) {
    const env = exp(-i / (0.003 * SAMPLE_RATE));
    out[at + i]! += gain * env * sin((2 * PI * 1500 * i) / SAMPLE_RATE);
  }
}

function addKick(out: Float32Array, at: number, gain: number): void {
  const len = round(0.25 * SAMPLE_RATE);
  let phase = 0;
  for (let i = 0; i < len && at + i < out.length; i++) {
    const t = i / SAMPLE_RATE;
    const f = 50 + 90 * exp(-t / 0.03);
    phase += (2 * PI * f) / SAMPLE_RATE;
    out[at + i]! += gain * exp(-t / 0.08) * sin(phase);
  }
}

function addNoiseHit(out: Float32Array, at: number, gain: number, decay: number, rnd: () => number, highPass: boolean): void {
  const len = round(decay * 6 * SAMPLE_RATE);
  const k = exp(-1 / (decay * SAMPLE_RATE));
  let env = gain;
  let prev = 0;
  for (let i = 0; i < len && at + i < out.length; i++) {
    const n = rnd() * 2 - 1;
    const v = highPass ? n - prev : n;
    prev = n;
    out[at + i]! += env * v;
    env *= k;
  }
}

/**
 * A tone of `harmonics` partials with 1/k amplitudes (or the given amplitude of each partial),
 * attack 10 ms, exponential decay.
 */
function addTone(out: Float32Array, at: number, seconds: number, hz: number, gain: number, harmonics: number | readonly number[] = 6): void {
  const partials = typeof harmonics === 'number' ? Array.from({ length: harmonics }, (_, i) => 1 / (i + 1)) : harmonics;
  const len = min(round(seconds * SAMPLE_RATE), out.length - at);
  const attack = round(0.01 * SAMPLE_RATE);
  const decay = exp(-1 / (0.6 * Math.max(1, len)));
  for (let k = 1; k <= partials.length; k++) {
    const f = hz * k;
    if (f > SAMPLE_RATE / 2 - 1000) break;
    const w = (2 * PI * f) / SAMPLE_RATE;
    // Sine by recurrence (s[n] = 2 cos w s[n-1] - s[n-2]): generating test signals stays cheap.
    const c = 2 * cos(w);
    let s1 = 0;
    let s2 = -sin(w);
    let env = gain * partials[k - 1]!;
    for (let i = 0; i < len; i++) {
      const s0 = c * s1 - s2;
      s2 = s1;
      s1 = s0;
      out[at + i]! += (i < attack ? i / attack : 1) * env * s0;
      env *= decay;
    }
  }
}

export function clickTrack(options: { bpm: number; seconds: number; beatsPerBar?: number }): Float32Array {
  const out = new Float32Array(round(options.seconds * SAMPLE_RATE));
  const beat = 60 / options.bpm;
  for (let b = 0; b * beat < options.seconds; b++) {
    const accent = options.beatsPerBar && b % options.beatsPerBar === 0 ? 1 : 0.6;
    addClick(out, round(b * beat * SAMPLE_RATE), accent);
  }
  return normalizePeak(out);
}

const MAJOR = [0, 2, 4, 5, 7, 9, 11];
const MINOR = [0, 2, 3, 5, 7, 8, 10];

/** Pitch classes of the triad on scale degree `degree` (0-based); in minor, degree 4 is the major V. */
export function triad(tonic: number, mode: 'major' | 'minor', degree: number): number[] {
  if (mode === 'minor' && degree === 4) return [(tonic + 7) % 12, (tonic + 11) % 12, (tonic + 2) % 12];
  const scale = mode === 'major' ? MAJOR : MINOR;
  return [0, 2, 4].map((k) => (tonic + scale[(degree + k) % 7]!) % 12);
}

function nearestNote(pc: number, center: number): number {
  let n = center - ((((center - pc) % 12) + 12) % 12);
  if (center - n > 6) n += 12;
  return n;
}

/**
 * A drum groove at `bpm` in 3/4 (kick on 1, snares on 2 and 3) or 4/4 (kick on 1 and 3, snares
 * on 2 and 4), eighth-note hi-hats, a bass note on every bar start and a new chord every bar
 * (I-IV-V-I in `tonic` major).
 */
export function drumPattern(options: { bpm: number; seconds: number; beatsPerBar: 3 | 4; seed?: number; tonic?: number }): Float32Array {
  const out = new Float32Array(round(options.seconds * SAMPLE_RATE));
  const rnd = seeded(options.seed ?? 1);
  const beat = 60 / options.bpm;
  const m = options.beatsPerBar;
  const tonic = options.tonic ?? 0;
  const degrees = [0, 3, 4, 0];
  for (let b = 0; b * beat < options.seconds; b++) {
    const at = round(b * beat * SAMPLE_RATE);
    const half = round((b + 0.5) * beat * SAMPLE_RATE);
    const inBar = b % m;
    const kick = inBar === 0 || (m === 4 && inBar === 2);
    if (kick) addKick(out, at, 1);
    else addNoiseHit(out, at, 0.5, 0.04, rnd, false);
    addNoiseHit(out, at, 0.25, 0.01, rnd, true);
    addNoiseHit(out, half, 0.18, 0.01, rnd, true);
    if (inBar === 0) {
      const bar = floor(b / m);
      const chord = triad(tonic, 'major', degrees[bar % 4]!);
      addTone(out, at, beat * m, midiToHz(nearestNote(chord[0]!, 40)), 0.35, 4);
      for (const [i, pc] of chord.entries()) addTone(out, at, beat * m, midiToHz(nearestNote(pc, 62 + i * 3)), 0.08, 6);
    }
  }
  return normalizePeak(out);
}

/** A drum machine's voice: kick, snare or clap, closed or open hat, or a pitched hit (tom, conga, clave...). */
export type DrumVoice = 'kick' | 'snare' | 'hat' | 'open' | { hz: number };

/** One hit of a drum machine pattern: its position in ticks from the bar start, voice, velocity 0-1. */
export type DrumHit = readonly [tick: number, voice: DrumVoice, velocity: number];

/** A drum machine at `bpm` playing one 4/4 bar of hits (`ticksPerBeat` ticks per beat) over and over; no other instrument. */
export function drumMachine(options: { bpm: number; seconds: number; ticksPerBeat: number; bar: readonly DrumHit[]; seed?: number }): Float32Array {
  const out = new Float32Array(round(options.seconds * SAMPLE_RATE));
  const rnd = seeded(options.seed ?? 1);
  const tick = 60 / options.bpm / options.ticksPerBeat;
  const barSeconds = 4 * options.ticksPerBeat * tick;
  for (let bar = 0; bar * barSeconds < options.seconds; bar++) {
    for (const [t, voice, velocity] of options.bar) {
      const at = round((bar * barSeconds + t * tick) * SAMPLE_RATE);
      if (at >= out.length) continue;
      if (voice === 'kick') addKick(out, at, velocity);
      else if (voice === 'snare') addNoiseHit(out, at, 0.5 * velocity, 0.05, rnd, false);
      else if (voice === 'hat') addNoiseHit(out, at, 0.25 * velocity, 0.01, rnd, true);
      else if (voice === 'open') addNoiseHit(out, at, 0.25 * velocity, 0.08, rnd, true);
      else addTone(out, at, 0.12, voice.hz, 0.3 * velocity, 3);
    }
  }
  return normalizePeak(out);
}

/**
 * Chords with harmonic partials and a bass line, one chord per bar of four beats at `bpm`
 * (default I-IV-V-I in major, i-iv-V-i in minor, repeated), ending on the tonic.
 */
export function chordProgression(options: {
  tonic: number;
  mode: 'major' | 'minor';
  seconds: number;
  bpm?: number;
  degrees?: number[];
  /** Amplitude of each partial of the bass (default 1/k for 5 partials). */
  bassPartials?: readonly number[];
  /** Gain of each chord's third relative to its root and fifth (default 1). */
  thirdGain?: number;
}): Float32Array {
  const out = new Float32Array(round(options.seconds * SAMPLE_RATE));
  const bar = (4 * 60) / (options.bpm ?? 100);
  const degrees = options.degrees ?? [0, 3, 4, 0];
  for (let i = 0; i * bar < options.seconds; i++) {
    const chord = triad(options.tonic, options.mode, degrees[i % degrees.length]!);
    const at = round(i * bar * SAMPLE_RATE);
    addTone(out, at, bar, midiToHz(nearestNote(chord[0]!, 43)), 0.3, options.bassPartials ?? 5);
    for (let beat = 0; beat < 4; beat++) {
      const bt = at + round((beat * bar * SAMPLE_RATE) / 4);
      for (const [k, pc] of chord.entries()) {
        addTone(out, bt, bar / 4, midiToHz(nearestNote(pc, 60 + k * 4)), 0.12 * (k === 1 ? (options.thirdGain ?? 1) : 1), 6);
      }
    }
  }
  return normalizePeak(out);
}
