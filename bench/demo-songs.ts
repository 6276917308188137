/**
 * Renders the demo songs that Debian's LMMS and Hydrogen packages ship into a folder that
 * `npm run bench:accuracy` reads: music made by people, with the tempo its author set.
 *
 *   npm run bench:demo-songs -- <out dir>
 *
 * Needs the Debian packages `lmms` and `hydrogen` (for their renderers and their demo songs);
 * the service never does. Each LMMS project in /usr/share/lmms/projects/{demos,shorties} and each
 * Hydrogen song in /usr/share/hydrogen/data/demo_songs is rendered whole to WAV (the engine then
 * takes its analysis window from the middle, as for any long file). truth.json gets the
 * project's tempo as `bpm`, and its time signature when it is 3/4 or 4/4.
 *
 * What the truth is: the tempo field of the project, the author's notated tempo. Listeners may
 * tap another level of some of them (reggae and reggaeton projects at 180 are felt at 90), so
 * Acc2 is the figure to read first, Acc1 second. No key: the projects do not state one.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { inflateSync } from 'node:zlib';

interface Row {
  file: string;
  bpm: number;
  timeSignature?: 3 | 4;
}

const LMMS_DIRS = ['/usr/share/lmms/projects/demos', '/usr/share/lmms/projects/shorties'];
const HYDROGEN_DIR = '/usr/share/hydrogen/data/demo_songs';

function filesUnder(dir: string, test: (name: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name), test) : test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** A file name without spaces or brackets. */
function safeName(path: string): string {
  return basename(path).replace(/\.[^.]+$/, '').replace(/[^A-Za-z0-9-]/g, '_');
}

const meter = (n: number): 3 | 4 | undefined => (n === 3 || n === 4 ? n : undefined);

/** An .mmpz is Qt's qCompress: a 4-byte length, then zlib. */
function lmmsTruth(project: string): Omit<Row, 'file'> {
  const bytes = readFileSync(project);
  const xml = project.endsWith('.mmpz') ? inflateSync(bytes.subarray(4)).toString('utf8') : bytes.toString('utf8');
  const head = /<head\b[^>]*>/.exec(xml)?.[0] ?? '';
  const attr = (name: string) => Number(new RegExp(`\\b${name}="([^"]*)"`).exec(head)?.[1]);
  const timeSignature = attr('timesig_denominator') === 4 ? meter(attr('timesig_numerator')) : undefined;
  return { bpm: attr('bpm'), ...(timeSignature ? { timeSignature } : {}) };
}

/** Hydrogen patterns count 48 ticks per quarter note: a 192-tick pattern is a 4/4 bar. */
function hydrogenTruth(song: string): Omit<Row, 'file'> {
  const xml = readFileSync(song, 'utf8');
  const bpm = Number(/<bpm>([^<]*)<\/bpm>/.exec(xml)?.[1]);
  const sizes = new Set([...xml.matchAll(/<pattern>[\s\S]*?<size>(\d+)<\/size>/g)].map((m) => Number(m[1])));
  const timeSignature = sizes.size === 1 ? meter([...sizes][0]! / 48) : undefined;
  return { bpm, ...(timeSignature ? { timeSignature } : {}) };
}

function main(): void {
  const out = process.argv[2];
  if (!out) {
    console.error('usage: npm run bench:demo-songs -- <out dir>   (needs: apt-get install lmms hydrogen)');
    process.exit(2);
  }
  mkdirSync(out, { recursive: true });
  const rows: Row[] = [];
  const render = (source: string, truth: Omit<Row, 'file'>, command: string, args: (wav: string) => string[]) => {
    const file = `${safeName(source)}.wav`;
    const wav = join(out, file);
    if (!existsSync(wav)) {
      execFileSync(command, args(wav), { stdio: 'ignore', timeout: 600_000, env: { ...process.env, QT_QPA_PLATFORM: 'offscreen' } });
    }
    if (Number.isFinite(truth.bpm)) rows.push({ file, ...truth });
    console.log(file, truth.bpm, truth.timeSignature ?? '');
  };
  for (const project of LMMS_DIRS.flatMap((d) => filesUnder(d, (n) => /\.mmpz?$/.test(n)))) {
    render(project, lmmsTruth(project), 'lmms', (wav) => ['--allowroot', 'render', project, '-o', wav, '-f', 'wav']);
  }
  for (const song of filesUnder(HYDROGEN_DIR, (n) => n.endsWith('.h2song'))) {
    render(song, hydrogenTruth(song), 'h2cli', (wav) => ['-s', song, '-o', wav, '-d', 'auto']);
  }
  if (rows.length === 0) {
    console.error('no demo songs found: apt-get install lmms hydrogen');
    process.exit(1);
  }
  writeFileSync(join(out, 'truth.json'), `${JSON.stringify(rows, null, 1)}\n`);
  console.log(`wrote ${rows.length} songs and truth.json to ${out}`);
}

main();
