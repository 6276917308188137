import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startServerProcess, stopServerProcesses } from '../../../measure/http/server-process';
import { mirexKeyScore, tempoRelation, tempoWithinOctave } from '../../../measure/corpora/accuracy-scores';
import { median, percentile } from '../../../measure/stats';

describe('bench statistics', () => {
  it('median: the middle value, or the mean of the two middle ones; input left unsorted', () => {
    const xs = [5, 1, 3];
    expect(median(xs)).toBe(3);
    expect(xs).toEqual([5, 1, 3]);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBe(0);
  });

  it('percentile by nearest rank: p50 and p99 of 1..100 are 50 and 99; p100 is the maximum, p0 the minimum', () => {
    const xs = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(xs, 50)).toBe(50);
    expect(percentile(xs, 99)).toBe(99);
    expect(percentile(xs, 100)).toBe(100);
    expect(percentile(xs, 0)).toBe(1);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBe(0);
  });
});

describe('bench server processes', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'tg-bench-lib-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('resolves with the port and the words of the READY line, and stops the process', async () => {
    const script = path.join(dir, 'ready.ts');
    await writeFile(script, "const word: string = process.env.WORD ?? '';\nprocess.stdout.write(`starting\\nREADY 4321 ${process.argv[2]} ${word}\\n`);\nsetInterval(() => undefined, 1000);\n");
    const server = await startServerProcess('test server', script, { args: ['abc'], env: { WORD: 'xyz' } });
    expect(server.port).toBe(4321);
    expect(server.ready).toEqual(['abc', 'xyz']);
    await stopServerProcesses([server]);
    expect(server.child.signalCode).toBe('SIGTERM');
  });

  it('rejects, naming the server, when it exits before it is ready', async () => {
    const script = path.join(dir, 'fails.ts');
    await writeFile(script, 'process.exit(3);\n');
    await expect(startServerProcess('load server', script)).rejects.toThrow('load server exited with 3');
  });
});

describe('accuracy scores', () => {
  it('tempoRelation names the metrical relation within 4 %, and "other" beyond', () => {
    expect(tempoRelation(121, 120)).toBe('right');
    expect(tempoRelation(190.1, 95)).toBe('double');
    expect(tempoRelation(60, 120)).toBe('half');
    expect(tempoRelation(113, 170)).toBe('2:3');
    expect(tempoRelation(180, 120)).toBe('3:2');
    expect(tempoRelation(130, 120)).toBe('other');
  });

  it('Acc2 accepts 2x, 1/2, 3x and 1/3 but not 3:2', () => {
    expect(tempoWithinOctave(59, 120)).toBe(true);
    expect(tempoWithinOctave(360, 120)).toBe(true);
    expect(tempoWithinOctave(180, 120)).toBe(false);
  });

  it('MIREX key score: exact 1, fifth 0.5, relative 0.3, parallel 0.2, else 0', () => {
    expect(mirexKeyScore(0, 1, 0, 1)).toBe(1);
    expect(mirexKeyScore(7, 1, 0, 1)).toBe(0.5);
    expect(mirexKeyScore(9, 0, 0, 1)).toBe(0.3);
    expect(mirexKeyScore(0, 0, 0, 1)).toBe(0.2);
    expect(mirexKeyScore(2, 1, 0, 1)).toBe(0);
  });
});
