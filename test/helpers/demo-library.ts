import { copyFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { RATE, concat, denseDistorted, encodeWav, song } from '../../measure/audio/audio-signals';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'library');

/** Tracks of the demo library: artist, title, and the audio each file holds. */
export const DEMO_TRACKS = [
  {
    artist: 'Northern Rooms',
    title: 'Aurora Drive',
    // A quiet intro without drums, then the band: two sections a listener would name.
    audio: () => concat(song(8, { bpm: 120, tonic: 9, minor: true, bright: false, drums: false }), song(16, { bpm: 120, tonic: 9, minor: true, bright: true, seed: 4 })),
  },
  { artist: 'Harbour Lights', title: 'Slow Tide', audio: () => song(16, { bpm: 84, tonic: 7, minor: false, bright: false, drums: false }) },
  { artist: 'Static Engine', title: 'Red Line', audio: () => denseDistorted(12, { bpm: 172 }) },
  { artist: 'Northern Rooms', title: 'Glass Harbour', audio: () => song(14, { bpm: 96, tonic: 2, minor: false, bright: true, seed: 9 }) },
] as const;

/**
 * A library for the dashboard's browser tests: generated songs (WAV, named "Artist - Title") for
 * real analyses with beats, bars and sections, and the tagged MP3 fixture with its cover art.
 */
export async function writeDemoLibrary(dir: string): Promise<void> {
  for (const t of DEMO_TRACKS) await writeFile(path.join(dir, `${t.artist} - ${t.title}.wav`), encodeWav([t.audio()], RATE));
  await copyFile(path.join(FIXTURES, 'money.mp3'), path.join(dir, 'money.mp3'));
}
