/**
 * Accuracy of the musical measurements against a folder of audio files with known answers.
 *
 *   npm run bench:accuracy -- <dir> [--json] [--window 30] [--no-context]
 *
 * `<dir>/truth.json` is an array of `{file, bpm, tonic, modeBinary, timeSignature, ...}` (the
 * format of ../shared/corpus/synth); rows missing a field are skipped for that metric.
 * Decoding goes through the engine's own `decodeWindow`, so the figures cover the service's path.
 * Key and mode get the rhythm stage's beats as the service does; `--no-context` measures them
 * without (profiles only, no phrase-start bass), for comparison.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { keyString } from '../src/core/music';
import { decodeAnalysisWindow } from '../src/engine/decode';
import { loadEssentia } from '../src/engine/essentia';
import { analyzeRhythm } from '../src/engine/rhythm';
import { analyzeTonal } from '../src/engine/tonal';
import { percentile } from './lib/stats';
import { type TruthRow, readTruth, tempoWithin, tempoWithinOctave } from './lib/truth';

interface ClipResult {
  file: string;
  truth: TruthRow;
  tempo: number;
  key: number;
  mode: 0 | 1;
  timeSignature: number;
  ms: number;
  cpuMs: number;
}

/** MIREX key score: same 1, fifth 0.5, relative 0.3, parallel 0.2, else 0. */
function mirexKeyScore(key: number, mode: 0 | 1, trueKey: number, trueMode: 0 | 1): number {
  if (key === trueKey && mode === trueMode) return 1;
  if (mode === trueMode && (key === (trueKey + 7) % 12 || key === (trueKey + 5) % 12)) return 0.5;
  if (mode !== trueMode) {
    const relative = trueMode === 1 ? (trueKey + 9) % 12 : (trueKey + 3) % 12;
    if (key === relative) return 0.3;
    if (key === trueKey) return 0.2;
  }
  return 0;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const withContext = !args.includes('--no-context');
  const wi = args.indexOf('--window');
  const windowSeconds = wi >= 0 ? Number(args[wi + 1]) : 30;
  const dir = args.find((a, i) => !a.startsWith('--') && !(wi >= 0 && i === wi + 1));
  if (!dir) {
    console.error('usage: npm run bench:accuracy -- <dir with audio and truth.json> [--json] [--window 30] [--no-context]');
    process.exit(2);
  }
  const truth = readTruth(dir);
  const essentia = loadEssentia();
  const results: ClipResult[] = [];
  for (const row of truth) {
    const bytes = readFileSync(join(dir, row.file));
    const audio = await decodeAnalysisWindow(bytes, windowSeconds);
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const rhythm = analyzeRhythm(essentia, audio.samples, 44100);
    const context = { beats: rhythm.beats, timeSignature: rhythm.timeSignature, fromStart: audio.offsetSeconds === 0 };
    const tonal = analyzeTonal(essentia, audio.samples, 44100, withContext ? context : undefined);
    const cpu = process.cpuUsage(cpu0);
    const ms = performance.now() - t0;
    const cpuMs = (cpu.user + cpu.system) / 1000;
    results.push({ file: row.file, truth: row, tempo: rhythm.tempo, key: tonal.key, mode: tonal.mode, timeSignature: rhythm.timeSignature, ms, cpuMs });
    if (!json) process.stderr.write('.');
  }
  if (!json) process.stderr.write('\n');

  const withBpm = results.filter((r) => r.truth.bpm !== undefined);
  const withKey = results.filter((r) => r.truth.tonic !== undefined && r.truth.modeBinary !== undefined);
  const withMode = results.filter((r) => r.truth.modeBinary !== undefined);
  const withTs = results.filter((r) => r.truth.timeSignature !== undefined);
  const share = (rows: ClipResult[], ok: (r: ClipResult) => boolean) => (rows.length ? rows.filter(ok).length / rows.length : NaN);
  const ms = results.map((r) => r.ms);
  const summary = {
    dir,
    clips: results.length,
    tempoAcc1: share(withBpm, (r) => tempoWithin(r.tempo, r.truth.bpm!)),
    tempoAcc2: share(withBpm, (r) => tempoWithinOctave(r.tempo, r.truth.bpm!)),
    keyExact: share(withKey, (r) => r.key === r.truth.tonic && r.mode === r.truth.modeBinary),
    keyMirex: withKey.length ? withKey.reduce((s, r) => s + mirexKeyScore(r.key, r.mode, r.truth.tonic!, r.truth.modeBinary!), 0) / withKey.length : NaN,
    mode: share(withMode, (r) => r.mode === r.truth.modeBinary),
    timeSignature: share(withTs, (r) => r.timeSignature === r.truth.timeSignature),
    msMedian: percentile(ms, 50),
    msP95: percentile(ms, 95),
    cpuMsMedian: percentile(results.map((r) => r.cpuMs), 50),
  };
  const misses = results.filter(
    (r) =>
      (r.truth.bpm !== undefined && !tempoWithin(r.tempo, r.truth.bpm)) ||
      (r.truth.tonic !== undefined && (r.key !== r.truth.tonic || r.mode !== r.truth.modeBinary)) ||
      (r.truth.timeSignature !== undefined && r.timeSignature !== r.truth.timeSignature),
  );
  if (json) {
    console.log(JSON.stringify({ summary, results }));
    return;
  }
  const pct = (x: number) => (Number.isNaN(x) ? '-' : `${(100 * x).toFixed(1)} %`);
  console.log(`${dir}: ${results.length} clips`);
  console.log(`tempo   Acc1 ${pct(summary.tempoAcc1)}   Acc2 ${pct(summary.tempoAcc2)}   (${withBpm.length} with bpm)`);
  // Songs without drums are the hard case for the level choice: shown apart when the truth says which.
  const drumless = withBpm.filter((r) => r.truth.drums === false);
  if (drumless.length > 0) {
    const right = (rows: ClipResult[]) => rows.filter((r) => tempoWithin(r.tempo, r.truth.bpm!)).length;
    const drummed = withBpm.filter((r) => r.truth.drums !== false);
    console.log(`        Acc1 with drums ${right(drummed)}/${drummed.length}, without drums ${right(drumless)}/${drumless.length}`);
  }
  console.log(`key     exact ${pct(summary.keyExact)}   MIREX ${Number.isNaN(summary.keyMirex) ? '-' : summary.keyMirex.toFixed(3)}   mode ${pct(summary.mode)}`);
  console.log(`meter   ${pct(summary.timeSignature)}   (${withTs.length} with time signature)`);
  console.log(
    `time    rhythm+tonal per clip: median ${summary.msMedian.toFixed(0)} ms, p95 ${summary.msP95.toFixed(0)} ms wall; median ${summary.cpuMsMedian.toFixed(0)} ms CPU`,
  );
  if (misses.length) {
    console.log('\nmisses                 tempo (truth)        key (truth)                      meter (truth)');
    for (const r of misses) {
      const t = r.truth;
      const tempo = t.bpm === undefined ? '' : `${r.tempo.toFixed(1)} (${t.bpm})${tempoWithin(r.tempo, t.bpm) ? '' : ' x'}`;
      const key =
        t.tonic === undefined || t.modeBinary === undefined
          ? ''
          : `${keyString(r.key, r.mode)} (${keyString(t.tonic, t.modeBinary)})${r.key === t.tonic && r.mode === t.modeBinary ? '' : ' x'}`;
      const meter = t.timeSignature === undefined ? '' : `${r.timeSignature} (${t.timeSignature})${r.timeSignature === t.timeSignature ? '' : ' x'}`;
      console.log(`${r.file.padEnd(22)} ${tempo.padEnd(20)} ${key.padEnd(32)} ${meter}`);
    }
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
