import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readFourQuadrants, readIdList } from '../../../measure/corpora/four-quadrants';
import { auc, crossValidated, fitLogistic, logit, seededShuffle } from '../../../measure/fit/logistic';
import { seeded } from '../../../measure/audio/signals';

describe('bench:moods statistics', () => {
  it('AUC: 1 for a perfect order, 0 reversed, ties count half, NaN without both sides', () => {
    expect(auc([0.1, 0.2, 0.8, 0.9], [false, false, true, true])).toBe(1);
    expect(auc([0.9, 0.8, 0.2, 0.1], [false, false, true, true])).toBe(0);
    expect(auc([0.5, 0.5, 0.5, 0.5], [false, true, false, true])).toBe(0.5);
    expect(auc([0.1, 0.6, 0.4, 0.9], [false, false, true, true])).toBe(0.75);
    expect(auc([1, 2], [true, true])).toBeNaN();
  });

  it('ridge logistic regression: finds the input that decides the label and its sign, on the inputs’ own scale; a larger penalty shrinks it', () => {
    const random = seeded(3);
    const rows = Array.from({ length: 400 }, () => ({ signal: 100 * random(), noise: random() }));
    const y = rows.map((r) => r.signal + 20 * (random() - 0.5) > 50);
    const fit = fitLogistic(rows, y, ['signal', 'noise'], 1);
    expect(fit.weights.signal).toBeGreaterThan(0.05);
    expect(Math.abs(fit.weights.noise!)).toBeLessThan(Math.abs(fit.weights.signal!) * 100 * 0.2);
    // Half-way at the threshold the labels were drawn with.
    expect(logit(fit, { signal: 50, noise: 0.5 })).toBeCloseTo(0, 0);
    const scores = rows.map((r) => logit(fit, r));
    expect(auc(scores, y)).toBeGreaterThan(0.9);
    expect(fitLogistic(rows, y, ['signal', 'noise'], 1000).weights.signal).toBeLessThan(fit.weights.signal!);
    // A constant input gets no weight.
    expect(fitLogistic(rows.map((r) => ({ ...r, constant: 3 })), y, ['signal', 'constant'], 1).weights.constant).toBe(0);
  });

  it('cross-validation: every item scored by models that never saw it, the folds stratified and the same on every run', () => {
    const items = Array.from({ length: 40 }, (_, i) => ({ id: i, stratum: i % 4 === 0 ? 'a' : 'b' }));
    const seen: Array<Set<number>> = [];
    const fit = (train: readonly (typeof items)[number][]): ((t: (typeof items)[number]) => number) => {
      const ids = new Set(train.map((t) => t.id));
      seen.push(ids);
      // Each train set holds a tenth fewer items, in both strata alike.
      expect(train).toHaveLength(36);
      expect(train.filter((t) => t.stratum === 'a')).toHaveLength(9);
      return (t) => (ids.has(t.id) ? Number.NaN : t.id);
    };
    const scores = crossValidated(items, (t) => t.stratum, fit, 10, 2);
    expect(scores).toEqual(items.map((t) => t.id));
    expect(seen).toHaveLength(20);
    expect(seededShuffle([1, 2, 3, 4, 5], 9)).toEqual(seededShuffle([1, 2, 3, 4, 5], 9));
  });
});

describe('bench:moods dataset reader', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'tg-4q-'));
    for (const q of ['Q1', 'Q2']) mkdirSync(path.join(dir, q));
    writeFileSync(path.join(dir, 'Q1', 'MT0000000001.mp3'), 'x');
    writeFileSync(path.join(dir, 'Q2', 'MT0000000002.mp3'), 'x');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const annotate = (text: string): void => writeFileSync(path.join(dir, 'panda_dataset_taffc_annotations.csv'), text);

  it('reads the annotations and finds each clip in its quadrant’s folder', () => {
    annotate('Song,Quadrant\r\nMT0000000001,Q1\r\n"MT0000000002","Q2"\r\n');
    expect(readFourQuadrants(dir).map((s) => [s.id, s.quadrant, path.relative(dir, s.file)])).toEqual([
      ['MT0000000001', 'Q1', path.join('Q1', 'MT0000000001.mp3')],
      ['MT0000000002', 'Q2', path.join('Q2', 'MT0000000002.mp3')],
    ]);
  });

  it('refuses what is not the dataset: no annotations, another header, an unknown quadrant, a missing clip, a song twice', () => {
    expect(() => readFourQuadrants(dir)).toThrow(/no panda_dataset_taffc_annotations.csv/);
    annotate('Id,Label\nMT0000000001,Q1\n');
    expect(() => readFourQuadrants(dir)).toThrow(/expected the header/);
    annotate('Song,Quadrant\nMT0000000001,Q5\n');
    expect(() => readFourQuadrants(dir)).toThrow(/line 2: not an id and a quadrant/);
    annotate('Song,Quadrant\nMT0000000001,Q2\n');
    expect(() => readFourQuadrants(dir)).toThrow(/missing/);
    annotate('Song,Quadrant\nMT0000000001,Q1\nMT0000000001,Q1\n');
    expect(() => readFourQuadrants(dir)).toThrow(/listed twice/);
  });

  it('reads a list of ids, comments and blank lines aside, and refuses anything else', () => {
    const list = path.join(dir, 'fit.txt');
    writeFileSync(list, '# fit\nMT0000000001\n\nMT0000000002  # second\n');
    expect([...readIdList(list)]).toEqual(['MT0000000001', 'MT0000000002']);
    writeFileSync(list, 'MT0000000001\n../etc/passwd\n');
    expect(() => readIdList(list)).toThrow(/not a song id/);
  });
});
