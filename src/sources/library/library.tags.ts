import { constants as fsConstants, promises as fs, type Stats } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type {
  Mpeg4AppleTag as AppleTag,
  File as TagFile,
  Id3v2FrameIdentifiers,
  Id3v2Tag,
  Id3v2UserTextInformationFrame as UserTextInformationFrame,
  XiphComment,
} from 'node-taglib-sharp';
import { lazily } from '../../core/lazy';
import { MOODS } from '../../core/descriptors';
import { KEY_NOTATIONS, openKey, type KeyNotation } from '../../core/music';
import { type TempoRange, withTempoRange } from '../../core/tempo-range';
import type { AudioFeatures, AudioProbe } from '../../core/types';

/*
 * Tags written back: BPM, initial key (standard, Open Key or Camelot notation, and Open Key) and moods from a stored
 * analysis, written into the file's own tags with node-taglib-sharp. A file is changed only
 * through a copy in its folder that is written, re-read (tags and audio) and renamed over it,
 * so a failure at any step leaves the original byte for byte as it was.
 */

/** A field written, by its Vorbis-comment name (`BPM`, `MOOD_HAPPY`); each tag format maps it to its own (docs/TAGS.md). */
export type TagField = string;

/** Field name → value, in the order they are written. */
export type TagValues = ReadonlyMap<TagField, string>;

export const BPM_FIELD = 'BPM';
export const KEY_FIELD = 'INITIALKEY';
export const OPEN_KEY_FIELD = 'INITIALKEY_OPENKEY';
/** The fields that carry the key (left out together where its confidence is too low). */
export const KEY_FIELDS: readonly TagField[] = [KEY_FIELD, OPEN_KEY_FIELD];
export const moodField = (name: string): TagField => `MOOD_${name.toUpperCase()}`;

/**
 * What a stored analysis says to write: BPM (rounded tempo), the initial key in `keyNotation`
 * (standard by default, as ID3 defines TKEY) and in Open Key, each mood with two decimals.
 */
export function tagValuesOf(features: Pick<AudioFeatures, 'tempo' | 'key' | 'mode' | 'mood'>, keyNotation: KeyNotation = 'standard'): TagValues {
  const values = new Map<TagField, string>();
  const bpm = Math.round(features.tempo);
  if (Number.isFinite(bpm) && bpm > 0) values.set(BPM_FIELD, String(bpm));
  const initial = KEY_NOTATIONS[keyNotation](features.key, features.mode);
  const open = openKey(features.key, features.mode);
  if (initial && open) {
    values.set(KEY_FIELD, initial);
    values.set(OPEN_KEY_FIELD, open);
  }
  for (const mood of MOODS) {
    const value = (features.mood as Readonly<Record<string, number>>)[mood.name];
    if (typeof value === 'number' && Number.isFinite(value)) values.set(moodField(mood.name), value.toFixed(2));
  }
  return values;
}

/** How an analysis is written into tags: the initial key's notation, the key confidence it needs, the BPM's range. */
export interface TagOptions {
  keyNotation: KeyNotation;
  /** Under this key confidence the key fields are left out. */
  minKeyConfidence: number;
  /** The BPM is the tempo counted within this range (core/tempo-range.ts). */
  range?: TempoRange;
}

/** What an analysis writes with `options` (tagValuesOf), and whether its key was left out for its confidence. */
export function tagValuesFor(
  features: Pick<AudioFeatures, 'tempo' | 'key' | 'mode' | 'mood' | 'confidence' | 'tempoAlternatives'>,
  options: TagOptions,
): { values: TagValues; keyLeftOut: boolean } {
  const values = new Map(tagValuesOf(options.range ? withTempoRange(features, options.range) : features, options.keyNotation));
  const keyLeftOut = features.confidence.key < options.minKeyConfidence;
  if (keyLeftOut) for (const field of KEY_FIELDS) values.delete(field);
  return { values, keyLeftOut };
}

/** How one tag format reads and writes the fields. */
interface TagAccess {
  kind: string;
  /** The tag to use, made when absent. */
  tag(file: TagFile): unknown;
  read(tag: unknown, field: TagField): string | undefined;
  write(tag: unknown, field: TagField, value: string): void;
}

const ITUNES = 'com.apple.iTunes';

/**
 * node-taglib-sharp, required when tags are first read or written (about 165 modules, 0.1 s of
 * CPU): a server whose library holds no files to tag, or a CLI run that only analyses, never
 * loads it.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const taglib = lazily(() => require('node-taglib-sharp') as typeof import('node-taglib-sharp'));

function frameId(name: 'TBPM' | 'TKEY'): NonNullable<(typeof Id3v2FrameIdentifiers)[string]> {
  const id = taglib().Id3v2FrameIdentifiers[name];
  if (!id) throw new Error(`node-taglib-sharp has no ${name} frame identifier`);
  return id;
}
const TBPM = lazily(() => frameId('TBPM'));
const TKEY = lazily(() => frameId('TKEY'));

const ID3V2: TagAccess = {
  kind: 'ID3v2',
  tag: (file) => file.getTag(taglib().TagTypes.Id3v2, true),
  read(tag, field) {
    const id3 = tag as Id3v2Tag;
    if (field === BPM_FIELD) return nonEmpty(id3.getTextAsString(TBPM()));
    if (field === KEY_FIELD) return nonEmpty(id3.getTextAsString(TKEY()));
    const { Id3v2UserTextInformationFrame, Id3v2FrameClassType } = taglib();
    const frame = Id3v2UserTextInformationFrame.findUserTextInformationFrame(id3.getFramesByClassType<UserTextInformationFrame>(Id3v2FrameClassType.UserTextInformationFrame), field, false);
    return nonEmpty(frame?.text.join(';'));
  },
  write(tag, field, value) {
    const id3 = tag as Id3v2Tag;
    if (field === BPM_FIELD) return id3.setTextFrame(TBPM(), value);
    if (field === KEY_FIELD) return id3.setTextFrame(TKEY(), value);
    const { Id3v2UserTextInformationFrame, Id3v2FrameClassType } = taglib();
    const frames = id3.getFramesByClassType<UserTextInformationFrame>(Id3v2FrameClassType.UserTextInformationFrame);
    for (const old of frames.filter((f) => f.description.toUpperCase() === field.toUpperCase())) id3.removeFrame(old);
    const frame = Id3v2UserTextInformationFrame.fromDescription(field);
    frame.text = [value];
    id3.addFrame(frame);
  },
};

const XIPH: TagAccess = {
  kind: 'Vorbis comment',
  tag: (file) => file.getTag(taglib().TagTypes.Xiph, true),
  read: (tag, field) => nonEmpty((tag as XiphComment).getFieldFirstValue(field)),
  write: (tag, field, value) => (tag as XiphComment).setFieldAsStrings(field, value),
};

const APPLE: TagAccess = {
  kind: 'MP4',
  tag: (file) => file.getTag(taglib().TagTypes.Apple, true),
  read(tag, field) {
    const apple = tag as AppleTag;
    if (field === BPM_FIELD) return apple.beatsPerMinute > 0 ? String(apple.beatsPerMinute) : undefined;
    return nonEmpty(apple.getItunesStrings(ITUNES, mp4Name(field))[0]);
  },
  write(tag, field, value) {
    const apple = tag as AppleTag;
    if (field === BPM_FIELD) apple.beatsPerMinute = Number(value);
    else apple.setItunesStrings(ITUNES, mp4Name(field), value);
  },
};

/** MP4 freeform names: "initialkey" as iTunes-minded taggers (Mixxx, Picard) spell it; the rest as in Vorbis. */
function mp4Name(field: TagField): string {
  return field === KEY_FIELD ? 'initialkey' : field;
}

/** The tag format written for each file ending: the one its players read. */
const ACCESS_BY_EXTENSION: Readonly<Record<string, TagAccess>> = {
  '.mp3': ID3V2,
  '.mp2': ID3V2,
  '.aif': ID3V2,
  '.aiff': ID3V2,
  '.flac': XIPH,
  '.ogg': XIPH,
  '.oga': XIPH,
  '.opus': XIPH,
  '.m4a': APPLE,
};

/** The file endings tags are written to. */
export const TAG_WRITE_EXTENSIONS: readonly string[] = Object.keys(ACCESS_BY_EXTENSION);


function nonEmpty(s: string | undefined): string | undefined {
  return s === undefined || s === '' ? undefined : s;
}

/** One field's change: undefined `from` when the file has no such tag. */
export interface TagChange {
  field: TagField;
  from?: string;
  to: string;
}

export type TagWriteOutcome =
  | { status: 'written' | 'unchanged'; changes: TagChange[] }
  /** No tag format is written for this file ending. */
  | { status: 'unsupported'; changes: [] }
  | { status: 'failed'; reason: string; changes: TagChange[] };

/** Reads a file's audio facts without decoding it: the engine's probe. */
export type AudioProber = (file: string) => Promise<Pick<AudioProbe, 'durationMs' | 'sampleRate' | 'channels'>>;

type AudioFacts = Awaited<ReturnType<AudioProber>>;

function sameAudio(a: AudioFacts, b: AudioFacts): boolean {
  return a.sampleRate === b.sampleRate && a.channels === b.channels && a.durationMs === b.durationMs;
}

/** Reads the fields of `values` from a file, opened through node-taglib-sharp. */
function readFields(file: string, mime: string, access: TagAccess, fields: Iterable<TagField>): Map<TagField, string | undefined> {
  const tagFile = taglib().File.createFromPath(file, mime);
  try {
    if (tagFile.isPossiblyCorrupt) throw new Error(`possibly corrupt: ${tagFile.corruptionReasons.join('; ')}`);
    const tag = access.tag(tagFile);
    const out = new Map<TagField, string | undefined>();
    for (const field of fields) out.set(field, access.read(tag, field));
    return out;
  } finally {
    tagFile.dispose();
  }
}

/** node-taglib-sharp picks a file's class by MIME type; "taglib/<ending>" is its name for each ending. */
const mimeOf = (ext: string): string => `taglib/${ext.slice(1)}`;

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Brings a file's tags to `values`. With `dryRun`, only says what would change. Otherwise the
 * changes go to a copy in the same folder (a hidden ".tmp" file, which the library does not
 * index), the copy is re-read — every field as written, the audio (through `probe`) with the
 * same sample rate, channels and duration — and only then renamed over the original. On any failure the
 * copy is removed and the original is untouched.
 */
export async function writeTags(file: string, values: TagValues, options: { probe: AudioProber; dryRun?: boolean }): Promise<TagWriteOutcome> {
  const ext = path.extname(file).toLowerCase();
  const access = ACCESS_BY_EXTENSION[ext];
  if (!access) return { status: 'unsupported', changes: [] };
  const mime = mimeOf(ext);

  let changes: TagChange[];
  let stat: Stats;
  try {
    stat = await fs.stat(file);
    const current = readFields(file, mime, access, values.keys());
    changes = [...values].filter(([field, to]) => current.get(field) !== to).map(([field, to]) => ({ field, from: current.get(field), to }));
  } catch (error) {
    return { status: 'failed', reason: `cannot read its tags: ${message(error)}`, changes: [] };
  }
  if (changes.length === 0) return { status: 'unchanged', changes };
  // A file without write permission is one its owner locked: renaming over it would succeed
  // (that needs the folder's permission only), so it is refused here, in a dry run too.
  if ((stat.mode & 0o222) === 0 || !(await writable(file))) return { status: 'failed', reason: 'read-only', changes };
  if (options.dryRun) return { status: 'written', changes };

  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const before = await options.probe(file);
    await fs.copyFile(file, temp, fsConstants.COPYFILE_EXCL);
    await fs.chmod(temp, stat.mode & 0o7777);
    const tagFile = taglib().File.createFromPath(temp, mime);
    try {
      const tag = access.tag(tagFile);
      for (const { field, to } of changes) access.write(tag, field, to);
      tagFile.save();
    } finally {
      tagFile.dispose();
    }
    const reread = readFields(temp, mime, access, values.keys());
    const wrong = [...values].filter(([field, to]) => reread.get(field) !== to).map(([field]) => field);
    if (wrong.length > 0) throw new Error(`re-read differs in ${wrong.join(', ')}`);
    if (!sameAudio(before, await options.probe(temp))) throw new Error('the audio of the written copy differs (sample rate, channels or duration)');
    await fs.rename(temp, file);
    return { status: 'written', changes };
  } catch (error) {
    await fs.rm(temp, { force: true });
    return { status: 'failed', reason: message(error), changes };
  }
}

async function writable(file: string): Promise<boolean> {
  try {
    await fs.access(file, fsConstants.W_OK);
    return true;
  } catch {
    return false;
  }
}
