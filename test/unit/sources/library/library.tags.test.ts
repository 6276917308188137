import { chmod, copyFile, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { File as TagFile, Id3v2FrameClassType, Id3v2Tag, Id3v2UserTextInformationFrame, TagTypes, XiphComment, Mpeg4AppleTag } from 'node-taglib-sharp';
import { MOODS, type MoodValues } from '../../../../src/core/descriptors';
import { PITCH_CLASSES } from '../../../../src/core/music';
import { camelotKey, openKey, standardKey } from '../../../../src/core/music';
import { tagValuesOf, writeTags as writeTagsWith, type TagValues } from '../../../../src/sources/library/library.tags';

const FIXTURES = path.join(__dirname, '..', '..', '..', 'fixtures', 'audio');
import { readWithMusicMetadata } from '../../../helpers/music-metadata';

/** Every mood of the registry, with values whose two-decimal form is known. */
const MOOD_VALUES = Object.fromEntries(MOODS.map((m, i) => [m.name, 0.1 + i * 0.2 + 0.004])) as MoodValues;
const FEATURES = { tempo: 127.6, key: 10, mode: 0, mood: MOOD_VALUES };
const VALUES = tagValuesOf(FEATURES);

/** The audio check reads the copy with music-metadata, as the engine's probe does. */
const writeTags = (file: string, values: TagValues, options: { dryRun?: boolean } = {}) =>
  writeTagsWith(file, values, { ...options, probe: readWithMusicMetadata });

describe('key notations', () => {
  // Open Key as Traktor prints it: 1d = C major up the circle of fifths, 1m = A minor.
  const OPEN_KEY_MAJOR: Record<string, string> = { C: '1d', G: '2d', D: '3d', A: '4d', E: '5d', B: '6d', 'F#': '7d', 'C#': '8d', 'G#': '9d', 'D#': '10d', 'A#': '11d', F: '12d' };
  const OPEN_KEY_MINOR: Record<string, string> = { A: '1m', E: '2m', B: '3m', 'F#': '4m', 'C#': '5m', 'G#': '6m', 'D#': '7m', 'A#': '8m', F: '9m', C: '10m', G: '11m', D: '12m' };

  it.each(PITCH_CLASSES.map((note, pc) => [note, pc] as const))('%s major and minor map to Open Key and standard notation', (note, pc) => {
    expect(openKey(pc, 1)).toBe(OPEN_KEY_MAJOR[note]);
    expect(openKey(pc, 0)).toBe(OPEN_KEY_MINOR[note]);
    expect(standardKey(pc, 1)).toBe(note);
    expect(standardKey(pc, 0)).toBe(`${note}m`);
  });

  // The Camelot wheel as Mixed In Key prints it: 8B = C major, 8A = A minor.
  const CAMELOT_MAJOR: Record<string, string> = { B: '1B', 'F#': '2B', 'C#': '3B', 'G#': '4B', 'D#': '5B', 'A#': '6B', F: '7B', C: '8B', G: '9B', D: '10B', A: '11B', E: '12B' };
  const CAMELOT_MINOR: Record<string, string> = { 'G#': '1A', 'D#': '2A', 'A#': '3A', F: '4A', C: '5A', G: '6A', D: '7A', A: '8A', E: '9A', B: '10A', 'F#': '11A', 'C#': '12A' };

  it.each(PITCH_CLASSES.map((note, pc) => [note, pc] as const))('%s major and minor map to Camelot', (note, pc) => {
    expect(camelotKey(pc, 1)).toBe(CAMELOT_MAJOR[note]);
    expect(camelotKey(pc, 0)).toBe(CAMELOT_MINOR[note]);
  });

  it('writes the initial key in the notation asked, Open Key beside it in every case', () => {
    expect(Object.fromEntries(tagValuesOf(FEATURES, 'camelot'))).toMatchObject({ INITIALKEY: '3A', INITIALKEY_OPENKEY: '8m' });
    expect(Object.fromEntries(tagValuesOf(FEATURES, 'open-key'))).toMatchObject({ INITIALKEY: '8m', INITIALKEY_OPENKEY: '8m' });
    expect(camelotKey(12, 1)).toBeUndefined();
    expect(tagValuesOf({ ...FEATURES, key: -1 }, 'camelot').has('INITIALKEY')).toBe(false);
  });

  it('gives all 24 keys distinct Open Key names, and none for a key outside 0–11', () => {
    const names = new Set(PITCH_CLASSES.flatMap((_, pc) => [openKey(pc, 0), openKey(pc, 1)]));
    expect(names.size).toBe(24);
    expect(openKey(-1, 1)).toBeUndefined();
    expect(standardKey(12, 0)).toBeUndefined();
  });

  it('writes the rounded tempo, both key notations and every mood with two decimals', () => {
    expect(Object.fromEntries(VALUES)).toEqual({
      BPM: '128',
      INITIALKEY: 'A#m',
      INITIALKEY_OPENKEY: '8m',
      ...Object.fromEntries(MOODS.map((m, i) => [`MOOD_${m.name.toUpperCase()}`, (0.1 + i * 0.2).toFixed(2)])),
    });
    // No key is written for an unknown key, no BPM for no tempo.
    expect([...tagValuesOf({ ...FEATURES, tempo: 0, key: -1 }).keys()]).toEqual(MOODS.map((m) => `MOOD_${m.name.toUpperCase()}`));
  });
});

describe('writeTags', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-tags-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const copy = async (name: string): Promise<string> => {
    const to = path.join(dir, name);
    await copyFile(path.join(FIXTURES, name), to);
    return to;
  };

  /** The fields as node-taglib-sharp reads them back, in the file's own tag format. */
  function taglibFields(file: string): Record<string, string | undefined> {
    const f = TagFile.createFromPath(file);
    try {
      const out: Record<string, string | undefined> = {};
      const ext = path.extname(file);
      if (ext === '.mp3') {
        const id3 = f.getTag(TagTypes.Id3v2, false) as Id3v2Tag;
        out.BPM = id3.beatsPerMinute ? String(id3.beatsPerMinute) : undefined;
        out.INITIALKEY = id3.initialKey;
        for (const frame of id3.getFramesByClassType<Id3v2UserTextInformationFrame>(Id3v2FrameClassType.UserTextInformationFrame)) out[frame.description] = frame.text[0];
      } else if (ext === '.m4a') {
        const apple = f.getTag(TagTypes.Apple, false) as Mpeg4AppleTag;
        out.BPM = String(apple.beatsPerMinute);
        out.INITIALKEY = apple.getItunesStrings('com.apple.iTunes', 'initialkey')[0];
        for (const k of VALUES.keys()) if (k !== 'BPM' && k !== 'INITIALKEY') out[k] = apple.getItunesStrings('com.apple.iTunes', k)[0];
      } else {
        const xiph = f.getTag(TagTypes.Xiph, false) as XiphComment;
        for (const k of VALUES.keys()) out[k] = xiph.getFieldFirstValue(k);
      }
      return out;
    } finally {
      f.dispose();
    }
  }

  const musicMetadataFields = readWithMusicMetadata;

  const expected = Object.fromEntries(VALUES);

  it('writes ID3v2 TBPM, TKEY and TXXX frames to an MP3, read back by node-taglib-sharp and music-metadata, audio and other tags intact', async () => {
    const file = await copy('chord-3s.mp3');
    const before = await musicMetadataFields(file);
    const outcome = await writeTags(file, VALUES);
    expect(outcome.status).toBe('written');
    expect(outcome.changes.map((c) => c.field)).toEqual([...VALUES.keys()]);
    expect(taglibFields(file)).toMatchObject(expected);
    const after = await musicMetadataFields(file);
    expect(after.bpm).toBe(128);
    expect(after.native).toMatchObject({ TBPM: '128', TKEY: 'A#m', 'TXXX:INITIALKEY_OPENKEY': '8m', TPE1: 'Fixture Artist', TIT2: 'Fixture Title' });
    for (const m of MOODS) expect(after.native[`TXXX:MOOD_${m.name.toUpperCase()}`]).toBe(expected[`MOOD_${m.name.toUpperCase()}`]);
    expect(after.durationMs).toBe(before.durationMs);
    expect(after.sampleRate).toBe(before.sampleRate);
    // No temporary file is left beside it.
    expect(await readdir(dir)).toEqual(['chord-3s.mp3']);
  });

  it.each(['chord-3s.flac', 'chord-3s.ogg', 'chord-3s.opus'])('writes Vorbis comments BPM, INITIALKEY and MOOD_* to %s', async (name) => {
    const file = await copy(name);
    expect((await writeTags(file, VALUES)).status).toBe('written');
    expect(taglibFields(file)).toEqual(expected);
    const after = await musicMetadataFields(file);
    expect(after.bpm).toBe(128);
    expect(after.native).toMatchObject(expected);
  });

  it('writes MP4 tmpo and freeform com.apple.iTunes initialkey and moods to an M4A', async () => {
    const file = await copy('tone-aac.m4a');
    expect((await writeTags(file, VALUES)).status).toBe('written');
    expect(taglibFields(file)).toEqual(expected);
    const after = await musicMetadataFields(file);
    expect(after.bpm).toBe(128);
    expect(after.native).toMatchObject({ tmpo: '128', '----:com.apple.iTunes:initialkey': 'A#m', '----:com.apple.iTunes:INITIALKEY_OPENKEY': '8m', '©ART': 'Fixture Artist' });
  });

  it('writes nothing the second time, and only what changed when the analysis changes', async () => {
    const file = await copy('chord-3s.mp3');
    await writeTags(file, VALUES);
    const written = await stat(file);
    expect(await writeTags(file, VALUES)).toEqual({ status: 'unchanged', changes: [] });
    expect((await stat(file)).mtimeMs).toBe(written.mtimeMs);
    const changed = await writeTags(file, tagValuesOf({ ...FEATURES, tempo: 90.2 }));
    expect(changed).toEqual({ status: 'written', changes: [{ field: 'BPM', from: '128', to: '90' }] });
  });

  it('with dryRun, says old → new and leaves the bytes as they were', async () => {
    const file = await copy('chord-3s.flac');
    const bytes = await readFile(file);
    const outcome = await writeTags(file, VALUES, { dryRun: true });
    expect(outcome.status).toBe('written');
    expect(outcome.changes[0]).toEqual({ field: 'BPM', from: undefined, to: '128' });
    expect((await readFile(file)).equals(bytes)).toBe(true);
    expect(await readdir(dir)).toEqual(['chord-3s.flac']);
  });

  it('reports a read-only file and leaves it byte for byte', async () => {
    const file = await copy('chord-3s.ogg');
    await chmod(file, 0o444);
    const bytes = await readFile(file);
    expect(await writeTags(file, VALUES, { dryRun: true })).toMatchObject({ status: 'failed', reason: 'read-only' });
    const outcome = await writeTags(file, VALUES);
    expect(outcome).toMatchObject({ status: 'failed', reason: 'read-only' });
    expect((await readFile(file)).equals(bytes)).toBe(true);
    expect(await readdir(dir)).toEqual(['chord-3s.ogg']);
  });

  it('reports a corrupt file and a format it does not tag, leaving both untouched and no temporary file', async () => {
    const garbage = await copy('garbage.mp3');
    const truncated = path.join(dir, 'words.m4a');
    await writeFile(truncated, 'these are words, not audio\n'.repeat(40));
    const wma = await copy('tone.wma');
    const before = await Promise.all([garbage, truncated, wma].map((f) => readFile(f)));
    expect((await writeTags(garbage, VALUES)).status).toBe('failed');
    expect((await writeTags(truncated, VALUES)).status).toBe('failed');
    expect(await writeTags(wma, VALUES)).toEqual({ status: 'unsupported', changes: [] });
    // AIFF renamed .mp3: the MPEG reader takes it, and the check on the copy refuses the result.
    const disguised = path.join(dir, 'aiff.mp3');
    await copyFile(path.join(FIXTURES, 'tone.aiff'), disguised);
    const disguisedBytes = await readFile(disguised);
    expect((await writeTags(disguised, VALUES)).status).toBe('failed');
    expect((await readFile(disguised)).equals(disguisedBytes)).toBe(true);
    const after = await Promise.all([garbage, truncated, wma].map((f) => readFile(f)));
    after.forEach((b, i) => expect(b.equals(before[i]!)).toBe(true));
    expect((await readdir(dir)).sort()).toEqual(['aiff.mp3', 'garbage.mp3', 'tone.wma', 'words.m4a']);
  });

  it('when the written copy does not check out, removes it and leaves the original byte for byte', async () => {
    const file = await copy('chord-3s.mp3');
    const bytes = await readFile(file);
    // The copy probes with another sample rate, as a damaged write would.
    const probe = async (f: string) => {
      const read = await readWithMusicMetadata(f);
      return f.endsWith('.tmp') ? { ...read, sampleRate: 8000 } : read;
    };
    const outcome = await writeTagsWith(file, VALUES, { probe });
    expect(outcome).toMatchObject({ status: 'failed', reason: expect.stringContaining('audio of the written copy differs') as unknown });
    expect((await readFile(file)).equals(bytes)).toBe(true);
    expect(await readdir(dir)).toEqual(['chord-3s.mp3']);
  });
});
