/**
 * Cuts the band-played songs that Debian's Frets on Fire song packages ship into 30 s clips with
 * the tempo their players tap, in a folder that `npm run bench:accuracy` and
 * `npm run bench:tempo-levels` read.
 *
 *   npm run bench:band-songs -- <out dir> [--only <package folder>,...] [--whole]
 *
 * Needs the Debian packages `fretsonfire-songs-muldjord` and/or `fretsonfire-songs-sectoid`, and
 * `sox` with `libsox-fmt-all`; the service never does. Each song folder holds the recorded stems
 * (song.ogg, guitar.ogg, rhythm.ogg) and the game's note chart, notes.mid. The stems are mixed,
 * peak-normalised to -1 dBFS and cut at 15 s, 45 s, 75 s … while a whole clip fits, as MP3
 * 128 kbit/s. `--only muldjord` keeps one package's songs (sectoid's are the corpus's recorded
 * set already). `--whole` writes each song whole instead (one MP3 a song, mixed and normalised
 * the same), for the tempo the engine reads over a whole track.
 *
 * What the truth is: the chart's tempo, the one the players tap along to. A song whose chart
 * changes tempo is skipped. No key or meter: the charts do not state them.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { hasCommand, soxFormatsLacking } from './lib/tools';

const SONGS_DIR = '/usr/share/games/fretsonfire/data/songs';
const STEMS = ['song.ogg', 'guitar.ogg', 'rhythm.ogg'];
const CLIP_SECONDS = 30;
const FIRST_CUT = 15;
const CUT_STEP = 30;

interface Row {
  file: string;
  artist: string;
  title: string;
  bpm: number;
  seconds: number;
  /** Where the clip starts in the song, seconds (0 for a whole song). */
  excerptStart: number;
}

/** The tempi (BPM) of a standard MIDI file's set-tempo events, in file order. */
export function midiTempi(midi: Buffer): number[] {
  if (midi.toString('latin1', 0, 4) !== 'MThd') throw new Error('not a standard MIDI file');
  const tempi: number[] = [];
  let p = 8 + midi.readUInt32BE(4);
  const vlq = (): number => {
    let v = 0;
    let c: number;
    do {
      c = midi[p++]!;
      v = (v << 7) | (c & 0x7f);
    } while (c & 0x80);
    return v;
  };
  while (p + 8 <= midi.length) {
    const end = p + 8 + midi.readUInt32BE(p + 4);
    const isTrack = midi.toString('latin1', p, p + 4) === 'MTrk';
    p += 8;
    let status = 0;
    while (isTrack && p < end) {
      vlq();
      if (midi[p]! & 0x80) status = midi[p++]!;
      if (status === 0xff) {
        const type = midi[p++]!;
        const length = vlq();
        if (type === 0x51 && length === 3) tempi.push(60e6 / ((midi[p]! << 16) | (midi[p + 1]! << 8) | midi[p + 2]!));
        p += length;
      } else if (status === 0xf0 || status === 0xf7) {
        p += vlq();
      } else {
        const kind = status & 0xf0;
        p += kind === 0xc0 || kind === 0xd0 ? 1 : 2;
      }
    }
    p = end;
  }
  return tempi;
}

/** `key = value` lines of a song.ini. */
function iniValue(text: string, key: string): string | undefined {
  return new RegExp(`^\\s*${key}\\s*=\\s*(.*)$`, 'mi').exec(text)?.[1]?.trim();
}

function main(): void {
  const { values, positionals } = parseArgs({ options: { only: { type: 'string' }, whole: { type: 'boolean', default: false } }, allowPositionals: true });
  const only = values.only === undefined ? undefined : new Set(values.only.split(',').filter(Boolean));
  const [out] = positionals;
  const formats = soxFormatsLacking(['ogg', 'mp3']);
  if (!out || !existsSync(SONGS_DIR) || !hasCommand('sox') || !hasCommand('soxi') || formats) {
    console.error(`usage: npm run bench:band-songs -- <out dir> [--only muldjord,sectoid] [--whole] (needs fretsonfire-songs-* and sox${formats})`);
    process.exit(2);
  }
  mkdirSync(out, { recursive: true });
  const rows: Row[] = [];
  for (const pack of readdirSync(SONGS_DIR).sort()) {
    if (only && !only.has(pack)) continue;
    for (const song of readdirSync(join(SONGS_DIR, pack)).sort()) {
      const dir = join(SONGS_DIR, pack, song);
      if (!existsSync(join(dir, 'notes.mid'))) continue;
      const tempi = midiTempi(readFileSync(join(dir, 'notes.mid')));
      if (tempi.length === 0 || tempi.some((t) => Math.abs(t - tempi[0]!) > 0.01)) {
        console.log(`${pack}/${song}: skipped (the chart has ${tempi.length === 0 ? 'no tempo' : 'several tempi'})`);
        continue;
      }
      const stems = STEMS.map((s) => join(dir, s)).filter(existsSync);
      const ini = existsSync(join(dir, 'song.ini')) ? readFileSync(join(dir, 'song.ini'), 'utf8') : '';
      const seconds = Number(execFileSync('soxi', ['-D', stems[0]!], { encoding: 'utf8' }));
      const mix = stems.length > 1 ? ['-m', ...stems] : stems;
      const bpm = Math.round(tempi[0]! * 1000) / 1000;
      const about = { artist: (iniValue(ini, 'artist') ?? pack).replace(/\s+-\s+www\..*$/, ''), title: iniValue(ini, 'name') ?? song, bpm };
      if (values.whole) {
        const file = `${pack}-${song}.mp3`;
        execFileSync('sox', [...mix, '-r', '44100', '-C', '128', join(out, file), 'norm', '-1']);
        rows.push({ file, ...about, seconds: Math.round(seconds * 100) / 100, excerptStart: 0 });
        console.log(`${file} ${pack}/${song} ${bpm} BPM, whole (${seconds.toFixed(1)} s)`);
        continue;
      }
      for (let start = FIRST_CUT; start + CLIP_SECONDS + 2 < seconds; start += CUT_STEP) {
        const file = `${pack}-${String(rows.length).padStart(2, '0')}.mp3`;
        execFileSync('sox', [...mix, '-r', '44100', '-C', '128', join(out, file), 'trim', String(start), String(CLIP_SECONDS), 'norm', '-1']);
        rows.push({ file, ...about, seconds: CLIP_SECONDS, excerptStart: start });
        console.log(`${file} ${pack}/${song} ${bpm} BPM from ${start} s`);
      }
    }
  }
  writeFileSync(join(out, 'truth.json'), `${JSON.stringify(rows, null, 1)}\n`);
  console.log(`wrote ${rows.length} ${values.whole ? 'songs' : 'clips'} and truth.json to ${out}`);
}

main();
