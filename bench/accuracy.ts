/**
 * Accuracy of tempo, key, mode and meter against a folder of audio with known answers, beside
 * essentia.js's RhythmExtractor2013 (multifeature) and KeyExtractor on the same windows, and the
 * QM key detector (libqm-dsp, bench/lib/qm-peer.ts) where Debian's libqm-dsp-dev is installed.
 *
 *   npm run bench:accuracy -- <dir> [--json] [--window 30] [--cache <dir>] [--no-peer] [--no-qm]
 *
 * `<dir>/truth.json` is an array of `{file, bpm?, tonic?, modeBinary?, timeSignature?, drums?}`;
 * a file whose row lacks a field (or has it null) is left out of that metric. Every file is
 * decoded by the engine's own decode path and analysed by the engine as the service does
 * (`AudioFeatures` of the window, the key of the whole file and the tempo's level weighed over it
 * where the file is longer than its window); the peers get the same 44.1 kHz mono window, or the
 * whole file where the engine reads it (both their key and their tempo).
 * `--cache <dir>` keeps the peer's results per window (it takes ~3 s per clip); `--no-peer`
 * skips it, for quick comparisons of engine changes only; `--no-qm` skips the QM key detector.
 *
 * Tempo: Acc1 within 4 %, Acc2 also at 2x, 1/2, 3x, 1/3; the errors are counted by kind
 * (octave: 2x or 1/2; 3:2 and 2:3: the wrong beat of a triple grouping). Beat grid: the share
 * of files whose median beat interval in the timeline is within 4 % of 60 / tempo. Last, the
 * median of each descriptor (split by `drums` when the truth says), for any folder, truth or not
 * (a truth.json listing only the files will do).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { keyString } from '../src/core/music';
import type { AudioFeatures } from '../src/core/types';
import { decodeAnalysisWindow } from '../src/engine/decode';
import { createEngine } from '../src/engine/engine';
import { ENGINE_ID } from '../src/engine/version';
import { PEER_NAME, Peer, type PeerResult } from './lib/peer';
import { printReliability } from './lib/reliability';
import { QM_NAME, type QmKey, qmKeyPeer } from './lib/qm-peer';
import { median } from '../measure/stats';
import { type TempoRelation, type TruthRow, mirexKeyScore, readTruth, tempoRelation } from '../measure/corpora/truth';

interface Answer {
  /** Absent for a tool that reads the key alone (the QM key detector). */
  tempo?: number;
  key: number;
  mode: 0 | 1;
  timeSignature?: number;
  /** The timeline's beats agree with the tempo (engine only). */
  gridAgrees?: boolean;
  /** The engine's key confidence, 0–1 (engine only). */
  keyConfidence?: number;
  /** The engine's tempo confidence, 0–1 (engine only). */
  tempoConfidence?: number;
  cpuMs: number;
}

interface Row {
  file: string;
  truth: TruthRow;
  ours: Answer & { tempo: number };
  descriptors: Record<string, number>;
  peer?: PeerResult;
  /** The QM key detector's key (no tempo). */
  qm?: QmKey;
}

const DESCRIPTORS = ['energy', 'danceability', 'speechiness', 'liveness', 'valence', 'arousal', 'happy', 'sad', 'relaxed', 'aggressive'] as const;

function descriptorsOf(f: AudioFeatures): Record<string, number> {
  return {
    energy: f.energy,
    danceability: f.danceability,
    speechiness: f.speechiness,
    liveness: f.liveness,
    valence: f.valence,
    arousal: f.arousal,
    happy: f.mood.happy,
    sad: f.mood.sad,
    relaxed: f.mood.relaxed,
    aggressive: f.mood.aggressive,
  };
}

/** Median of each descriptor over the rows, as one table line. */
function descriptorLine(name: string, rows: Row[]): string {
  return `${name.padEnd(22)} ${String(rows.length).padStart(4)} ${DESCRIPTORS.map((d) => median(rows.map((r) => r.descriptors[d]!)).toFixed(2).padStart(8)).join('')}`;
}

interface Summary {
  clips: number;
  withTempo: number;
  acc1: number;
  acc2: number;
  errors: Partial<Record<TempoRelation, number>>;
  withKey: number;
  keyExact: number;
  keyMirex: number;
  mode: number;
  withMeter: number;
  meter: number;
  beatGrid: number;
  cpuMsMedian: number;
}

function gridAgrees(features: AudioFeatures): boolean {
  const beats = features.timeline.beats;
  if (beats.length < 3 || !(features.tempo > 0)) return false;
  const gaps = beats.slice(1).map((b, i) => b.start - beats[i]!.start);
  return Math.abs(60 / median(gaps) - features.tempo) <= 0.04 * features.tempo;
}

function summarise(rows: Row[], answer: (r: Row) => Answer | undefined): Summary {
  const answered = rows.filter((r) => answer(r) !== undefined);
  const tempo = answered.filter((r) => r.truth.bpm !== undefined && answer(r)!.tempo !== undefined);
  const key = answered.filter((r) => r.truth.tonic !== undefined && r.truth.modeBinary !== undefined);
  const meter = answered.filter((r) => r.truth.timeSignature !== undefined && answer(r)!.timeSignature !== undefined);
  const share = (k: number, n: number) => (n > 0 ? k / n : NaN);
  const errors: Partial<Record<TempoRelation, number>> = {};
  let acc1 = 0;
  let acc2 = 0;
  for (const r of tempo) {
    const rel = tempoRelation(answer(r)!.tempo!, r.truth.bpm!);
    if (rel === 'right') acc1++;
    else errors[rel] = (errors[rel] ?? 0) + 1;
    if (rel === 'right' || rel === 'double' || rel === 'half' || rel === 'triple' || rel === 'third') acc2++;
  }
  const a = (r: Row) => answer(r)!;
  return {
    clips: answered.length,
    withTempo: tempo.length,
    acc1: share(acc1, tempo.length),
    acc2: share(acc2, tempo.length),
    errors,
    withKey: key.length,
    keyExact: share(key.filter((r) => a(r).key === r.truth.tonic && a(r).mode === r.truth.modeBinary).length, key.length),
    keyMirex: share(key.reduce((s, r) => s + mirexKeyScore(a(r).key, a(r).mode, r.truth.tonic!, r.truth.modeBinary!), 0), key.length),
    mode: share(key.filter((r) => a(r).mode === r.truth.modeBinary).length, key.length),
    withMeter: meter.length,
    meter: share(meter.filter((r) => a(r).timeSignature === r.truth.timeSignature).length, meter.length),
    beatGrid: share(answered.filter((r) => a(r).gridAgrees === true).length, answered.length),
    cpuMsMedian: median(answered.map((r) => a(r).cpuMs)),
  };
}

const pct = (x: number) => (Number.isNaN(x) ? '-' : `${(100 * x).toFixed(1)}`);

function line(name: string, s: Summary, engine: boolean): string {
  const errs = (Object.entries(s.errors) as Array<[TempoRelation, number]>).map(([k, v]) => `${k} ${v}`).join(', ') || 'none';
  return [
    name.padEnd(22),
    pct(s.acc1).padStart(6),
    pct(s.acc2).padStart(6),
    errs.padEnd(26),
    pct(s.keyExact).padStart(6),
    (Number.isNaN(s.keyMirex) ? '-' : s.keyMirex.toFixed(3)).padStart(6),
    pct(s.mode).padStart(6),
    (engine ? pct(s.meter) : 'n/a').padStart(6),
    (engine ? pct(s.beatGrid) : 'n/a').padStart(6),
    s.cpuMsMedian.toFixed(0).padStart(7),
  ].join(' ');
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const valued = new Set(['--window', '--cache']);
  const value = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const dir = args.find((a, i) => !a.startsWith('--') && !valued.has(args[i - 1] ?? ''));
  if (!dir) {
    console.error('usage: npm run bench:accuracy -- <dir with audio and truth.json> [--json] [--window 30] [--cache <dir>] [--no-peer]');
    process.exit(2);
  }
  const json = args.includes('--json');
  const windowSeconds = Number(value('--window') ?? 30);
  const peer = args.includes('--no-peer') ? undefined : new Peer(value('--cache'));
  const qm = args.includes('--no-qm') ? {} : qmKeyPeer();
  if (qm.missing && !json) console.error(`QM key detector left out: ${qm.missing}`);
  const engine = createEngine({ windowSeconds });
  const rows: Row[] = [];
  for (const truth of readTruth(dir)) {
    const bytes = readFileSync(join(dir, truth.file));
    const cpu0 = process.cpuUsage();
    const audio = await decodeAnalysisWindow(bytes, windowSeconds);
    const features = engine.analyseWindow(audio);
    const cpu = process.cpuUsage(cpu0);
    const ours: Row['ours'] = {
      tempo: features.tempo,
      key: features.key,
      mode: features.mode === 1 ? 1 : 0,
      timeSignature: features.timeSignature,
      gridAgrees: gridAgrees(features),
      keyConfidence: features.confidence.key,
      tempoConfidence: features.confidence.tempo,
      cpuMs: (cpu.user + cpu.system) / 1000,
    };
    // The engine read the whole file (its key, its tempo's level): so do the peers (decoded whole, as 44.1 kHz mono).
    const whole = audio.wholeTrack && (peer || qm.peer) ? (await decodeAnalysisWindow(bytes, Math.ceil(audio.durationSeconds) + 1)).samples : undefined;
    const qmKey = qm.peer?.analyse(whole ?? audio.samples, 44100);
    rows.push({ file: truth.file, truth, ours, descriptors: descriptorsOf(features), peer: peer?.analyse(audio.samples, whole), ...(qmKey ? { qm: qmKey } : {}) });
    if (!json) process.stderr.write('.');
  }
  if (!json) process.stderr.write('\n');
  const summary = {
    dir,
    engine: ENGINE_ID,
    ours: summarise(rows, (r) => r.ours),
    peer: peer ? summarise(rows, (r) => r.peer) : undefined,
    qm: qm.peer ? summarise(rows, (r) => r.qm) : undefined,
  };
  if (json) {
    console.log(JSON.stringify({ summary, rows }));
    return;
  }
  const { ours } = summary;
  console.log(`${dir}: ${rows.length} clips (${ours.withTempo} with tempo, ${ours.withKey} with key, ${ours.withMeter} with meter)`);
  console.log(`${''.padEnd(22)}  tempo % Acc1   Acc2 errors                     key %  MIREX mode % meter %  grid % CPU ms`);
  console.log(line(ENGINE_ID.split(' ')[0]!, ours, true));
  if (summary.peer) console.log(line('essentia.js', summary.peer, false));
  if (summary.qm) console.log(line('QM key detector', summary.qm, false));
  console.log(`(essentia.js: ${PEER_NAME}; CPU ms: decode + analysis per clip for the engine, the two calls for essentia.js; median)`);
  if (summary.qm) console.log(`(QM: ${QM_NAME}; CPU ms: the host process, key only)`);
  console.log(`\ndescriptor medians      clips${DESCRIPTORS.map((d) => d.slice(0, 7).padStart(8)).join('')}`);
  console.log(descriptorLine('all', rows));
  reliability(rows);
  byGenre(rows, summary.peer !== undefined, summary.qm !== undefined);
  const drumless = rows.filter((r) => r.truth.drums === false);
  if (drumless.length > 0) {
    console.log(descriptorLine('with drums', rows.filter((r) => r.truth.drums !== false)));
    console.log(descriptorLine('without drums', drumless));
  }
  const missed = rows.filter(
    (r) =>
      (r.truth.bpm !== undefined && tempoRelation(r.ours.tempo, r.truth.bpm) !== 'right') ||
      (r.truth.tonic !== undefined && (r.ours.key !== r.truth.tonic || r.ours.mode !== r.truth.modeBinary)) ||
      (r.truth.timeSignature !== undefined && r.ours.timeSignature !== r.truth.timeSignature) ||
      r.ours.gridAgrees === false,
  );
  if (missed.length === 0) return;
  console.log('\nmisses of the engine (peers beside)');
  console.log(`${'file'.padEnd(24)} ${'tempo (truth) [peer]'.padEnd(34)} ${'key (truth) [peer] {QM}'.padEnd(40)} meter (truth)  grid`);
  for (const r of missed) {
    const t = r.truth;
    const rel = t.bpm === undefined ? '' : tempoRelation(r.ours.tempo, t.bpm);
    const tempo = t.bpm === undefined ? '' : `${r.ours.tempo.toFixed(1)} (${t.bpm})${rel === 'right' ? '' : ` ${rel}`}${r.peer ? ` [${r.peer.tempo.toFixed(1)}]` : ''}`;
    const key =
      t.tonic === undefined || t.modeBinary === undefined
        ? ''
        : `${keyString(r.ours.key, r.ours.mode)} (${keyString(t.tonic, t.modeBinary)})${r.ours.key === t.tonic && r.ours.mode === t.modeBinary ? '' : ' x'}${r.peer ? ` [${keyString(r.peer.key, r.peer.mode)}]` : ''}${r.qm ? ` {${keyString(r.qm.key, r.qm.mode)}}` : ''}`;
    const meter = t.timeSignature === undefined ? '' : `${r.ours.timeSignature} (${t.timeSignature})${r.ours.timeSignature === t.timeSignature ? '' : ' x'}`;
    console.log(`${r.file.padEnd(24)} ${tempo.padEnd(34)} ${key.padEnd(40)} ${meter.padEnd(14)} ${r.ours.gridAgrees ? '' : 'x'}`);
  }
}

/**
 * How often the engine is right in each band of its confidences: the key exactly (what a key
 * confidence of 0.7 is worth on this set; the `--min-key-confidence` of `npm run index --
 * --write-tags` is read against this table) and the tempo at Acc1.
 */
function reliability(rows: Row[]): void {
  const keyed = rows.filter((r) => r.truth.tonic !== undefined && r.truth.modeBinary !== undefined && r.ours.keyConfidence !== undefined);
  if (keyed.length > 0) {
    printReliability(
      'key confidence',
      keyed,
      (r) => r.ours.keyConfidence!,
      (r) => r.ours.key === r.truth.tonic && r.ours.mode === r.truth.modeBinary,
      { name: 'MIREX', of: (r) => mirexKeyScore(r.ours.key, r.ours.mode, r.truth.tonic!, r.truth.modeBinary!) },
    );
  }
  const timed = rows.filter((r) => r.truth.bpm !== undefined && r.ours.tempoConfidence !== undefined);
  if (timed.length > 0) printReliability('tempo confidence', timed, (r) => r.ours.tempoConfidence!, (r) => tempoRelation(r.ours.tempo, r.truth.bpm!) === 'right');
}

/** Per kind of music (the truth's `genre` or `kind`), where the set names more than one: tempo and key, the engine beside the peers. */
function byGenre(rows: Row[], peer: boolean, qm: boolean): void {
  const genres = [...new Set(rows.map((r) => r.truth.genre).filter((g): g is string => g !== undefined))];
  if (genres.length < 2) return;
  const acc = (rs: Row[], tempo: (r: Row) => number | undefined, ok: (rel: TempoRelation) => boolean) => {
    const timed = rs.filter((r) => r.truth.bpm !== undefined && tempo(r) !== undefined);
    return timed.length ? pct(timed.filter((r) => ok(tempoRelation(tempo(r)!, r.truth.bpm!))).length / timed.length) : '-';
  };
  const mirex = (rs: Row[], key: (r: Row) => { key: number; mode: 0 | 1 } | undefined) => {
    const keyed = rs.filter((r) => r.truth.tonic !== undefined && r.truth.modeBinary !== undefined && key(r) !== undefined);
    return keyed.length ? (keyed.reduce((s, r) => s + mirexKeyScore(key(r)!.key, key(r)!.mode, r.truth.tonic!, r.truth.modeBinary!), 0) / keyed.length).toFixed(3) : '-';
  };
  const acc2 = (rel: TempoRelation) => ['right', 'double', 'half', 'triple', 'third'].includes(rel);
  console.log(`\nby genre          clips  Acc1  Acc2 engine misses (tempo)          ${peer ? 'essentia Acc1  Acc2 ' : ''} key clips  MIREX${peer ? ' essentia' : ''}${qm ? '     QM' : ''}`);
  for (const genre of genres.sort()) {
    const rs = rows.filter((r) => r.truth.genre === genre);
    const errors = new Map<TempoRelation, number>();
    for (const r of rs) {
      if (r.truth.bpm === undefined) continue;
      const rel = tempoRelation(r.ours.tempo, r.truth.bpm);
      if (rel !== 'right') errors.set(rel, (errors.get(rel) ?? 0) + 1);
    }
    const misses = [...errors].map(([k, v]) => `${k} ${v}`).join(', ') || (rs.some((r) => r.truth.bpm !== undefined) ? 'none' : '-');
    const keyed = rs.filter((r) => r.truth.tonic !== undefined).length;
    console.log(
      [
        genre.slice(0, 16).padEnd(16),
        String(rs.length).padStart(6),
        acc(rs, (r) => r.ours.tempo, (rel) => rel === 'right').padStart(5),
        acc(rs, (r) => r.ours.tempo, acc2).padStart(5),
        misses.padEnd(30),
        ...(peer ? [acc(rs, (r) => r.peer?.tempo, (rel) => rel === 'right').padStart(13), acc(rs, (r) => r.peer?.tempo, acc2).padStart(5)] : []),
        String(keyed).padStart(10),
        mirex(rs, (r) => r.ours).padStart(6),
        ...(peer ? [mirex(rs, (r) => r.peer).padStart(9)] : []),
        ...(qm ? [mirex(rs, (r) => r.qm).padStart(6)] : []),
      ].join(' '),
    );
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
