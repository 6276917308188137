import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Russell's quadrants as the 4Q dataset labels them: Q1 positive-energetic, Q2 negative-energetic, Q3 negative-calm, Q4 positive-calm. */
export type Quadrant = 'Q1' | 'Q2' | 'Q3' | 'Q4';
export const QUADRANTS: readonly Quadrant[] = ['Q1', 'Q2', 'Q3', 'Q4'];

export const positive = (q: Quadrant): boolean => q === 'Q1' || q === 'Q4';
export const energetic = (q: Quadrant): boolean => q === 'Q1' || q === 'Q2';

/** One song of the dataset: its id (the file name without .mp3), its quadrant and its file. */
export interface LabelledSong {
  id: string;
  quadrant: Quadrant;
  file: string;
}

const ID = /^MT\d{10}$/;

/**
 * The 4Q audio emotion dataset (Panda, Malheiro & Paiva, IEEE TAFFC 2018) as distributed:
 * `panda_dataset_taffc_annotations.csv` (Song,Quadrant) and the clips in `Q1..Q4/<id>.mp3`.
 * The annotations are read as untrusted data: a row with an unknown quadrant or a malformed id,
 * a song filed under another quadrant than its label, or a missing clip is an error.
 */
export function readFourQuadrants(dir: string): LabelledSong[] {
  const csv = path.join(dir, 'panda_dataset_taffc_annotations.csv');
  if (!existsSync(csv)) throw new Error(`${dir} is not the 4Q dataset: no panda_dataset_taffc_annotations.csv`);
  const lines = readFileSync(csv, 'utf8').split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines[0]?.replace(/"/g, '').trim() !== 'Song,Quadrant') throw new Error(`${csv}: expected the header Song,Quadrant`);
  const songs = lines.slice(1).map((line, i) => {
    const [id, quadrant] = line.replace(/"/g, '').split(',').map((f) => f.trim());
    if (!id || !ID.test(id) || !QUADRANTS.includes(quadrant as Quadrant)) throw new Error(`${csv}, line ${i + 2}: not an id and a quadrant: ${line}`);
    const file = path.join(dir, quadrant!, `${id}.mp3`);
    if (!existsSync(file)) throw new Error(`${file}: missing (the annotations list ${id} in ${quadrant})`);
    return { id, quadrant: quadrant as Quadrant, file };
  });
  if (new Set(songs.map((s) => s.id)).size !== songs.length) throw new Error(`${csv}: a song is listed twice`);
  return songs;
}

/** A list of song ids, one a line (the form of the fit list `bench:moods --fit` reads); blank lines and `#` comments ignored. */
export function readIdList(file: string): Set<string> {
  const ids = readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .map((l) => l.replace(/#.*/, '').trim())
    .filter((l) => l !== '');
  const bad = ids.find((id) => !ID.test(id));
  if (bad !== undefined) throw new Error(`${file}: not a song id: ${bad}`);
  return new Set(ids);
}
