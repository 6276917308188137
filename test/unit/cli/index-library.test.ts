import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { textSink } from '../../helpers/log-capture';
import { pino } from 'pino';
import { AnalysisService } from '../../../src/analysis/analysis.service';
import { runIndexCli } from '../../../src/cli/index-library';
import { AppError } from '../../../src/core/errors';
import type { AudioFeatures, AudioInput } from '../../../src/core/types';
import { FakeEngine } from '../../../measure/http/fake-engine';

/** Fails on files whose name contains "broken", as the real engine does on undecodable audio. */
class PickyEngine extends FakeEngine {
  override async analyse(input: AudioInput): Promise<AudioFeatures> {
    if ('path' in input && input.path.includes('broken')) {
      this.analyseCalls++;
      throw new AppError('AUDIO_UNDECODABLE', 'the file could not be decoded');
    }
    return super.analyse(input);
  }
}


describe('npm run index -- [dir]', () => {
  let dir: string;
  let library: string;
  let engine: PickyEngine;

  const run = async (args: string[] = [library]) => {
    const lines: string[] = [];
    const progress = textSink();
    const status = await runIndexCli(args, {
      out: (line) => lines.push(line),
      progress: progress.stream,
      env: {
        DATA_DIR: path.join(dir, 'data'),
        CACHE_URL: `sqlite://${path.join(dir, 'data', 'cache.sqlite')}`,
        ANALYSIS_WORKERS: '2',
        LOG_LEVEL: 'silent',
      },
      overrides: { engine, logger: pino({ level: 'silent' }) },
    });
    return { status, lines, progress: progress.text() };
  };

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-index-'));
    library = path.join(dir, 'music');
    await mkdir(path.join(library, 'Some Artist', 'Album'), { recursive: true });
    for (let i = 0; i < 48; i++) await writeFile(path.join(library, `Band ${i % 7} - Song ${i}.mp3`), `audio ${i}`);
    await writeFile(path.join(library, 'Some Artist', 'Album', '01 - Intro.flac'), 'intro');
    await writeFile(path.join(library, 'Bad Band - broken.mp3'), 'not audio');
    await writeFile(path.join(library, 'notes.txt'), 'not an audio file');
    engine = new PickyEngine();
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('analyses every audio file of 50 with a progress bar, summarises the failure and exits 1', async () => {
    const first = await run();
    expect(first.status).toBe(1);
    expect(engine.analyseCalls).toBe(50);
    expect(first.progress).toMatch(/indexing \|.*\| 50\/50 files \| [\d.]+ files\/s \| ETA \S+ \| 1 failed/);
    expect(first.lines[0]).toBe(`${library}: 50 tracks, 0 already stored, 49 analysed, 1 failed`);
    expect(first.lines[1]).toBe('  failed: Bad Band - broken.mp3: AUDIO_UNDECODABLE: the file could not be decoded');
  });

  it('goes through the analysis service: one batch read for what is stored, one analyseTrack per file left', async () => {
    const storedMany = jest.spyOn(AnalysisService.prototype, 'storedMany');
    const analyseTrack = jest.spyOn(AnalysisService.prototype, 'analyseTrack');
    try {
      await run();
      expect(storedMany).toHaveBeenCalledTimes(1);
      expect(storedMany.mock.calls[0]![0]).toHaveLength(50);
      expect(analyseTrack).toHaveBeenCalledTimes(50);
      storedMany.mockClear();
      analyseTrack.mockClear();
      await run();
      expect(analyseTrack.mock.calls.map(([track]) => track.audio?.locator)).toEqual(['Bad Band - broken.mp3']);
    } finally {
      storedMany.mockRestore();
      analyseTrack.mockRestore();
    }
  });

  it('a second run skips what is stored and unchanged: only the failed file is tried again, no tags re-read', async () => {
    await run();
    const analysed = engine.analyseCalls;
    const probed = engine.probeCalls;
    const second = await run();
    expect(engine.analyseCalls - analysed).toBe(1);
    expect(engine.probeCalls).toBe(probed);
    expect(second.lines[0]).toBe(`${library}: 50 tracks, 49 already stored, 0 analysed, 1 failed`);
    expect(second.status).toBe(1);
  });

  it('when everything is stored, it finishes at once without drawing a bar and exits 0', async () => {
    await rm(path.join(library, 'Bad Band - broken.mp3'));
    expect((await run()).status).toBe(0);
    const analysed = engine.analyseCalls;
    const again = await run();
    expect(again.status).toBe(0);
    expect(engine.analyseCalls).toBe(analysed);
    expect(again.progress).toBe('');
    expect(again.lines).toEqual([`${library}: 49 tracks, 49 already stored, 0 analysed, 0 failed`]);
  });

  it('prints its usage with --help', async () => {
    const help = await run(['--help']);
    expect(help.status).toBe(0);
    expect(help.lines[0]).toMatch(/^usage: npm run index -- \[--write-tags \[--min-key-confidence <0-1>\] \[--bpm-range <min>-<max>\] \[--key-notation <name>\] \[--dry-run\]\] \[dir\]/);
  });
});
