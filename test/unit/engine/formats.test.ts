import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { DecodeReport } from '../../helpers/decode-child';

// One child process decodes every file (audio-decode is ESM-only; see decode-child.ts).
jest.setTimeout(120_000);

const FIXTURES = path.join(__dirname, '../../fixtures/audio');
const CHILD = path.join(__dirname, '../../helpers/decode-child.ts');

/** Every fixture is a 440 Hz sine made with ffmpeg (test/fixtures/audio/README.md): 3 s, the PCM ones 2 s. */
const DECODABLE: [file: string, format: string, seconds: number, rate: number][] = [
  ['tone-aac.m4a', 'm4a', 3, 22050],
  ['tone-alac.m4a', 'm4a', 3, 8000],
  ['tone.aac', 'aac', 3, 44100], // raw ADTS: FAAD2 assumes implicit SBR and doubles the rate
  ['tone.aiff', 'aiff', 2, 8000],
  ['tone-sowt.aifc', 'aiff', 2, 8000],
  ['tone.wma', 'wma', 3, 22050],
  ['tone.wv', 'wv', 3, 8000],
  ['tone.tta', 'tta', 3, 8000],
  ['tone.caf', 'caf', 2, 8000],
  ['tone-opus.webm', 'webm', 3, 48000],
  ['tone-vorbis.mka', 'webm', 3, 22050],
  ['tone-flac.oga', 'flac', 3, 8000],
  ['tone.mp2', 'mp3', 3, 22050],
  ['tone.ac3', 'ac3', 3, 48000],
  ['tone.eac3', 'eac3', 3, 48000],
  ['tone.dts', 'dts', 2, 32000],
];

/**
 * An AIFF of `seconds` of a 440 Hz sine, 44.1 kHz stereo 16-bit, larger than one decoder chunk
 * (256 KB), with an ID3 chunk of loud bytes after its sound data.
 */
function longAiff(seconds: number): Uint8Array {
  const frames = seconds * 44100;
  const sound = frames * 4;
  const tag = 1000;
  const out = new Uint8Array(12 + 26 + 16 + sound + 8 + tag);
  const view = new DataView(out.buffer);
  const ascii = (at: number, text: string): void => [...text].forEach((c, i) => view.setUint8(at + i, c.charCodeAt(0)));
  ascii(0, 'FORM');
  view.setUint32(4, out.length - 8);
  ascii(8, 'AIFF');
  ascii(12, 'COMM');
  view.setUint32(16, 18);
  view.setUint16(20, 2);
  view.setUint32(22, frames);
  view.setUint16(26, 16);
  out.set([0x40, 0x0e, 0xac, 0x44, 0, 0, 0, 0, 0, 0], 28); // 44100 as an 80-bit float
  ascii(38, 'SSND');
  view.setUint32(42, 8 + sound);
  for (let i = 0; i < frames; i++) {
    const v = Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 44100));
    view.setInt16(54 + i * 4, v);
    view.setInt16(56 + i * 4, v);
  }
  ascii(54 + sound, 'ID3 ');
  view.setUint32(58 + sound, tag);
  out.fill(0x7f, 62 + sound);
  return out;
}

async function decodeAll(files: string[]): Promise<Map<string, DecodeReport>> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', CHILD, ...files], { maxBuffer: 1 << 20 });
  const reports = stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as DecodeReport);
  return new Map(reports.map((r) => [path.basename(r.file), r]));
}

describe('every container the engine indexes, decoded through its decode path', () => {
  let dir: string;
  let reports: Map<string, DecodeReport>;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-formats-'));
    const files = [...DECODABLE.map(([f]) => f), 'tone-alac.caf'];
    for (const f of files) await copyFile(path.join(FIXTURES, f), path.join(dir, f));
    // Each cut to 60 % of its bytes.
    for (const f of ['tone-aac.m4a', 'tone.aiff', 'tone.wma', 'tone.wv', 'tone-opus.webm', 'tone-vorbis.mka']) {
      const bytes = await readFile(path.join(FIXTURES, f));
      await writeFile(path.join(dir, `cut-${f}`), bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    }
    await writeFile(path.join(dir, 'long.aiff'), longAiff(3.5));
    const names = ['long.aiff', ...files, ...['tone-aac.m4a', 'tone.aiff', 'tone.wma', 'tone.wv', 'tone-opus.webm', 'tone-vorbis.mka'].map((f) => `cut-${f}`)];
    reports = await decodeAll(names.map((f) => path.join(dir, f)));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each(DECODABLE)('when %s is decoded, then it is %s of %d s at %d Hz and the tone is 440 Hz', (file, format, seconds, rate) => {
    const r = reports.get(file)!;
    expect(r.error).toBeUndefined();
    expect(r.format).toBe(format);
    expect(r.sourceSampleRate).toBe(rate);
    expect(r.channels).toBe(1);
    // Lossy codecs add or drop a frame's worth at the ends.
    expect(r.durationSeconds).toBeGreaterThan(seconds - 0.05);
    expect(r.durationSeconds).toBeLessThan(seconds + 0.05);
    expect(r.frequency).toBeGreaterThan(437);
    expect(r.frequency).toBeLessThan(443);
  });

  it('when an AIFF file has an ID3 chunk after its sound data, then the tag is not decoded as samples', () => {
    expect(reports.get('tone.aiff')!.durationSeconds).toBe(2);
    // Past the first 256 KB chunk too: the 1000-byte tag would add 250 frames.
    const long = reports.get('long.aiff')!;
    expect(long.durationSeconds).toBe(3.5);
    expect(long.channels).toBe(2);
    expect(long.frequency).toBeCloseTo(440, 0);
  });

  it('when a container holds a codec no installed decoder reads (ALAC in CAF), then AUDIO_UNDECODABLE names it', () => {
    expect(reports.get('tone-alac.caf')!.error).toEqual({ code: 'AUDIO_UNDECODABLE', message: expect.stringMatching(/^unsupported CAF content: .*alac/) as unknown });
  });

  it.each(['tone-aac.m4a', 'tone.aiff', 'tone.wma', 'tone.wv', 'tone-opus.webm', 'tone-vorbis.mka'])(
    'when %s is cut short, then AUDIO_UNDECODABLE, never a partial analysis',
    (file) => {
      const r = reports.get(`cut-${file}`)!;
      expect(r.error?.code).toBe('AUDIO_UNDECODABLE');
      expect(r.error?.message).toMatch(/truncated|corrupt|no audio/);
    },
  );
});
