/**
 * The key stage's choices, cross-validated: which key profile, and how much the bass line weighs
 * (a fixed weight, "w bass", or a weight times the bass line's concentration, "w bass×c", as the
 * engine weighs it: src/engine/tonal.key.ts).
 *
 *   npm run bench:key-profiles -- <dir> [<dir>...] [--cache <dir>]
 *
 * Each `<dir>` holds audio and a truth.json with `tonic` and `modeBinary`. Every clip is decoded by
 * the engine's decode path, and its summed chroma and bass line come from the engine's own chroma
 * stage; each variant then scores the 24 keys as the key stage does (the profile correlation of
 * the chroma plus `w` times that of the bass line, then the third), and is scored by the MIREX key
 * score per set. Reported: every variant's score per set, and for each set the variant chosen on
 * all the other sets (leave one set out) with its score on the set left out: the figure to trust.
 *
 * The profiles besides the engine's (Sha'ath 2011) are published ones: Krumhansl & Kessler's
 * probe-tone ratings (1982), Temperley's MIREX 2005 profiles, Faraldo et al.'s EDM profiles
 * ("edma", 2016; "bgate" and "braw", their profiles from a corpus of pop and rock, the first
 * being essentia KeyExtractor's default) and the mean HPCP of Gómez's evaluation set ("thpcp", 2006).
 */
import { mkdirSync } from 'node:fs';
import { basename } from 'node:path';
import { Stft } from '../src/engine/signal.stft';
import { modeByThird } from '../src/engine/tonal';
import { chromaOf, chromaSum } from '../src/engine/tonal.chroma';
import { BASS_WEIGHT, KEY_PROFILES, bassConcentration, keyCorrelation } from '../src/engine/tonal.key';
import { mirexKeyScore, readTruth } from './lib/truth';
import { analysisWindowOf } from './lib/window-cache';

type Profiles = readonly [major: readonly number[], minor: readonly number[]];

const PROFILES: Record<string, Profiles> = {
  shaath: [KEY_PROFILES.major, KEY_PROFILES.minor],
  krumhansl: [
    [6.35, 2.23, 3.48, 2.33, 4.38, 4.09, 2.52, 5.19, 2.39, 3.66, 2.29, 2.88],
    [6.33, 2.68, 3.52, 5.38, 2.6, 3.53, 2.54, 4.75, 3.98, 2.69, 3.34, 3.17],
  ],
  temperley2005: [
    [0.748, 0.06, 0.488, 0.082, 0.67, 0.46, 0.096, 0.715, 0.104, 0.366, 0.057, 0.4],
    [0.712, 0.084, 0.474, 0.618, 0.049, 0.46, 0.105, 0.747, 0.404, 0.067, 0.133, 0.33],
  ],
  edma: [
    [0.1652, 0.0475, 0.0829, 0.0669, 0.0999, 0.0927, 0.0529, 0.1316, 0.0522, 0.0744, 0.0694, 0.0643],
    [0.1724, 0.0534, 0.0761, 0.1004, 0.0562, 0.0853, 0.0498, 0.1345, 0.0746, 0.05, 0.0919, 0.0555],
  ],
  bgate: [
    [1, 0, 0.42, 0, 0.53, 0.37, 0, 0.77, 0, 0.38, 0.21, 0.3],
    [1, 0, 0.36, 0.39, 0, 0.38, 0, 0.74, 0.27, 0, 0.42, 0.23],
  ],
  braw: [
    [1, 0.1573, 0.42, 0.157, 0.5296, 0.3669, 0.1632, 0.7711, 0.1676, 0.3827, 0.2113, 0.2965],
    [1, 0.233, 0.3615, 0.3905, 0.2925, 0.3777, 0.1961, 0.7425, 0.2701, 0.2161, 0.4228, 0.2272],
  ],
  thpcp: [
    [0.9516, 0.2074, 0.7176, 0.2201, 0.7134, 0.4884, 0.3143, 1, 0.2096, 0.5366, 0.2259, 0.5536],
    [0.9441, 0.2174, 0.6453, 0.6323, 0.279, 0.5771, 0.2643, 1, 0.2643, 0.3063, 0.4592, 0.3593],
  ],
};
const BASS_WEIGHTS = [0, 0.1, 0.2, 0.3, 0.5, 0.7, 1, 1.5];

interface Clip {
  set: string;
  tonic: number;
  mode: 0 | 1;
  chroma: Float64Array;
  bass: Float64Array;
}

/** The key a variant reads: the best of the 24 scores, then the third, as tonal.ts does. */
function keyOf(clip: Clip, [major, minor]: Profiles, weight: number, scaled: boolean): { key: number; mode: 0 | 1 } {
  const w = scaled ? weight * bassConcentration(clip.bass) : weight;
  let best = { key: 0, mode: 1 as 0 | 1, score: -Infinity };
  for (let tonic = 0; tonic < 12; tonic++) {
    for (const [mode, profile] of [[1, major], [0, minor]] as const) {
      const score = keyCorrelation(clip.chroma, profile, tonic) + w * keyCorrelation(clip.bass, profile, tonic);
      if (score > best.score) best = { key: tonic, mode, score };
    }
  }
  return { key: best.key, mode: modeByThird(best.key, clip.chroma) ?? best.mode };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const cacheAt = args.indexOf('--cache');
  const cache = cacheAt >= 0 ? args[cacheAt + 1] : undefined;
  const dirs = args.filter((a, i) => !a.startsWith('--') && !(cacheAt >= 0 && i === cacheAt + 1));
  if (dirs.length === 0) {
    console.error('usage: npm run bench:key-profiles -- <dir> [<dir>...] [--cache <dir>]');
    process.exit(2);
  }
  if (cache) mkdirSync(cache, { recursive: true });
  const stft = new Stft();
  const clips: Clip[] = [];
  for (const dir of dirs) {
    for (const row of readTruth(dir)) {
      if (row.tonic === undefined || row.modeBinary === undefined) continue;
      const chroma = chromaOf(stft.spectrogram(stft.halfRate(await analysisWindowOf(dir, row.file, cache))));
      clips.push({ set: basename(dir), tonic: row.tonic, mode: row.modeBinary, chroma: chromaSum(chroma), bass: chromaSum(chroma, 0, chroma.count, 'bass') });
      process.stderr.write('.');
    }
    process.stderr.write(` ${basename(dir)}\n`);
  }
  const sets = [...new Set(clips.map((c) => c.set))];
  const variants = Object.entries(PROFILES).flatMap(([name, profiles]) =>
    [false, true].flatMap((scaled) => (scaled ? BASS_WEIGHTS.filter((w) => w > 0).concat([2, 3]) : BASS_WEIGHTS).map((w) => ({ name: `${name} + ${w} ${scaled ? 'bass×c' : 'bass'}`, profiles, w, scaled }))),
  );
  const scores = variants.map((v) =>
    sets.map((s) => {
      const mine = clips.filter((c) => c.set === s);
      return mine.reduce((sum, c) => {
        const k = keyOf(c, v.profiles, v.w, v.scaled);
        return sum + mirexKeyScore(k.key, k.mode, c.tonic, c.mode);
      }, 0) / mine.length;
    }),
  );
  const mean = (x: number[]) => x.reduce((a, b) => a + b, 0) / x.length;
  console.log(`MIREX key score per set (engine: shaath + ${BASS_WEIGHT} bass×c; bass×c: the weight times the bass line's concentration)`);
  console.log(`${'variant'.padEnd(24)}${sets.map((s) => s.padStart(8)).join('')}    mean`);
  variants.forEach((v, i) => console.log(`${v.name.padEnd(24)}${scores[i]!.map((x) => x.toFixed(3).padStart(8)).join('')}  ${mean(scores[i]!).toFixed(3)}`));
  if (sets.length < 2) return;
  console.log('\nleave one set out: the variant with the best mean on the other sets, scored on the set left out');
  const held: number[] = [];
  sets.forEach((s, j) => {
    const others = (i: number) => mean(scores[i]!.filter((_, k) => k !== j));
    let best = 0;
    for (let i = 1; i < variants.length; i++) if (others(i) > others(best)) best = i;
    held.push(scores[best]![j]!);
    // Variants as good on the other sets: the choice among them is arbitrary, so say what they score.
    const tied = variants.map((_, i) => i).filter((i) => i !== best && Math.abs(others(i) - others(best)) < 1e-9);
    const range = tied.map((i) => scores[i]![j]!);
    const ties = tied.length === 0 ? '' : ` (tied on the other sets with ${tied.length}: ${Math.min(...range).toFixed(3)}–${Math.max(...range).toFixed(3)} here)`;
    console.log(`${s.padEnd(12)} chosen ${variants[best]!.name.padEnd(24)} ${scores[best]![j]!.toFixed(3)}${ties}`);
  });
  console.log(`mean left out ${mean(held).toFixed(3)}`);
}

void main();
