import { AppError } from '../../../src/core/errors';
import type { AnalysisEngine, AudioFeatures, AudioInput, AudioProbe } from '../../../src/core/types';
import { trackKey } from '../../../src/core/track-key';
import { identify, runAnalyseCli } from '../../../src/cli/analyse';

const features: AudioFeatures = {
  durationMs: 30000, tempo: 120, key: 9, mode: 0, timeSignature: 4, loudness: -12, energy: 0.7, liveness: 0.1,
  danceability: 0.8, instrumentalness: 0.9, speechiness: 0.05, acousticness: 0.3, valence: 0.4, arousal: 0.6, approachability: 0.7,
  engagement: 0.6, mood: { happy: 0.3, sad: 0.5, relaxed: 0.2, aggressive: 0.4 },
  confidence: { tempo: 0.9, key: 0.8, mode: 0.7, timeSignature: 0.6 },
  timeline: { beats: [], bars: [], sections: [] }, tuningHz: 437.2, engine: 'test',
};

/** An engine whose answers depend on the file name: "bad" fails, "tagged" has tags. */
function fakeEngine(log: string[]): AnalysisEngine {
  const name = (input: AudioInput): string => ('path' in input ? input.path : '');
  return {
    async analyse(input) {
      log.push(`analyse ${name(input)}`);
      if (name(input).includes('bad')) throw new AppError('AUDIO_UNDECODABLE', 'truncated FLAC');
      return features;
    },
    async probe(input): Promise<AudioProbe> {
      return name(input).includes('tagged') ? { artist: 'Pink Floyd', title: 'Money' } : {};
    },
    async close() {
      log.push('close');
    },
  };
}

describe('analyse CLI', () => {
  it('when --json is given, then one line per file with the contract object or the error, and exit 1 if any failed', async () => {
    const lines: string[] = [];
    const log: string[] = [];
    const asked: number[] = [];
    const status = await runAnalyseCli(['--json', 'tagged.mp3', 'Air - La Femme d’argent.flac', 'bad.flac'], (l) => lines.push(l), (files) => {
      asked.push(files);
      return fakeEngine(log);
    });
    expect(status).toBe(1);
    // One engine, told the number of files (the pool starts no more threads than files).
    expect(asked).toEqual([3]);
    const parsed = lines.map((l) => JSON.parse(l) as { file: string; data?: Record<string, unknown>; estimates?: unknown; error?: unknown });
    expect(parsed).toHaveLength(3);
    const byFile = new Map(parsed.map((p) => [p.file, p]));
    expect(byFile.get('tagged.mp3')!.data).toMatchObject({
      artist: 'Pink Floyd', trackName: 'Money', trackKey: 'bc24aaa5a97c70ed', keyString: 'A minor', duration_ms: 30000,
      meta: { artist: 'Pink Floyd', track: 'Money' },
    });
    expect(byFile.get('Air - La Femme d’argent.flac')!.data).toMatchObject({
      artist: 'Air', trackName: 'La Femme d’argent', trackKey: trackKey('Air', 'La Femme d’argent'),
    });
    expect(byFile.get('bad.flac')!.error).toEqual({ code: 'AUDIO_UNDECODABLE', message: 'truncated FLAC' });
    // The confidences and the tuning beside the contract's object, which stays the contract's.
    expect(byFile.get('tagged.mp3')!.estimates).toEqual({ keyConfidence: 0.8, modeConfidence: 0.7, tempoConfidence: 0.9, timeSignatureConfidence: 0.6, tuningHz: 437.2 });
    expect(byFile.get('tagged.mp3')!.data).not.toHaveProperty('tuningHz');
    expect(byFile.get('bad.flac')).not.toHaveProperty('estimates');
    expect(log.at(-1)).toBe('close');
  });

  it('when all files succeed without --json, then a table is printed and the exit status is 0', async () => {
    const lines: string[] = [];
    const status = await runAnalyseCli(['tagged.mp3'], (l) => lines.push(l), () => fakeEngine([]));
    expect(status).toBe(0);
    expect(lines[0]).toMatch(/^file\s+duration\s+tempo\s+key/);
    expect(lines[1]).toMatch(/tagged\.mp3\s+30\.0s\s+120\.0\s+A minor\s+4\/4/);
  });

  it('when --bpm-range is given, then the tempo is counted within it: the grid\'s level inside the range, its confidence the grid\'s', async () => {
    // The engine reads 120 BPM (0.9); its half, 60 BPM, the runner-up.
    const halfOnSide: AnalysisEngine = { ...fakeEngine([]), analyse: async () => ({ ...features, tempoAlternatives: [{ tempo: 60, confidence: 0.05 }] }) };
    const lines: string[] = [];
    expect(await runAnalyseCli(['--json', '--bpm-range', '50-90', 'tagged.mp3'], (l) => lines.push(l), () => halfOnSide)).toBe(0);
    const one = JSON.parse(lines[0]!) as { data: { tempo: number }; estimates: { tempoConfidence: number } };
    expect(one.data.tempo).toBe(60);
    expect(one.estimates.tempoConfidence).toBe(0.95);
    // Without the range, the engine's own tempo; in the table, the range's.
    lines.length = 0;
    expect(await runAnalyseCli(['--json', 'tagged.mp3'], (l) => lines.push(l), () => halfOnSide)).toBe(0);
    expect((JSON.parse(lines[0]!) as { data: { tempo: number } }).data.tempo).toBe(120);
    lines.length = 0;
    expect(await runAnalyseCli(['--bpm-range=160-240', 'tagged.mp3'], (l) => lines.push(l), () => halfOnSide)).toBe(0);
    expect(lines[1]).toMatch(/tagged\.mp3\s+30\.0s\s+240\.0\s+A minor/);
  });

  it('when --bpm-range is no range, or has no value, then it is said with the usage and nothing is analysed', async () => {
    for (const args of [['--bpm-range', '140-70', 'a.mp3'], ['--bpm-range=fast', 'a.mp3'], ['a.mp3', '--bpm-range'], ['--tempo', 'a.mp3']]) {
      const lines: string[] = [];
      let made = false;
      const status = await runAnalyseCli(args, (l) => lines.push(l), () => {
        made = true;
        return fakeEngine([]);
      });
      expect(status).toBe(2);
      expect(made).toBe(false);
      expect(lines.join('\n')).toMatch(/usage: npm run analyse/);
    }
    const lines: string[] = [];
    await runAnalyseCli(['--bpm-range', '140-70', 'a.mp3'], (l) => lines.push(l), () => fakeEngine([]));
    expect(lines[0]).toMatch(/^--bpm-range: a BPM range is two tempi from 20 to 400, the lower first, as 70-140; not "140-70"/);
  });

  it('when no file is given, then usage and exit status 2', async () => {
    const lines: string[] = [];
    expect(await runAnalyseCli([], (l) => lines.push(l), () => fakeEngine([]))).toBe(2);
    expect(lines.join('\n')).toMatch(/usage/);
  });

  it('when a file has neither tags nor an "Artist - Title" name, then the title is the file name', () => {
    expect(identify('/music/03 - Intro.mp3', undefined)).toEqual({ artist: 'Unknown Artist', trackName: 'Intro' });
    expect(identify('/music/song.ogg', {})).toEqual({ artist: 'Unknown Artist', trackName: 'song' });
    expect(identify('/music/A - B.ogg', { title: 'Tagged' })).toEqual({ artist: 'A', trackName: 'Tagged' });
  });
});
