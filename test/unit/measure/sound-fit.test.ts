import { columnStats, discriminant, fitFrames, fitModels, principalComponents, principalComponentsOfFewRows } from '../../../measure/fit/sound-fit';
import { CLASSIFIER_ORDER, modelsEmbedding } from '../../../src/engine/sound.embedding';
import { rng } from '../../../measure/audio/audio-signals';
import { CEPSTRAL_DIMS, supervector } from '../../../src/engine/sound.frames';

describe('principal components (measure/fit/sound-fit.ts)', () => {
  const dot = (a: readonly number[], b: readonly number[]): number => a.reduce((s, v, i) => s + v * b[i]!, 0);

  it('from the Gram matrix, for fewer rows than columns: unit, orthogonal components along the rows\' spread, each with the variance of the rows along it', () => {
    const random = rng(7);
    const d = 40;
    const along = Array.from({ length: d }, (_, i) => (i % 3 === 0 ? 1 : -0.5));
    const norm = Math.hypot(...along);
    const direction = along.map((v) => v / norm);
    // 12 rows: a large spread along `direction`, a little elsewhere.
    const rows = Array.from({ length: 12 }, (_, r) => direction.map((v) => v * (r - 5.5) * 3 + (random() - 0.5) * 0.2));
    const centre = Array.from({ length: d }, (_, j) => rows.reduce((s, r) => s + r[j]!, 0) / rows.length);
    const { components, variances } = principalComponentsOfFewRows(rows, centre, 20);
    expect(components).toHaveLength(12);
    expect(Math.abs(dot(components[0]!, direction))).toBeGreaterThan(0.99);
    for (let a = 0; a < 3; a++) {
      expect(dot(components[a]!, components[a]!)).toBeCloseTo(1, 6);
      for (let b = a + 1; b < 3; b++) expect(dot(components[a]!, components[b]!)).toBeCloseTo(0, 6);
      const projected = rows.map((r) => dot(r.map((v, j) => v - centre[j]!), components[a]!));
      expect(projected.reduce((s, p) => s + p * p, 0) / rows.length).toBeCloseTo(variances[a]!, 6);
    }
    expect(variances[0]!).toBeGreaterThan(100 * variances[1]!);
    // The covariance's own decomposition finds the same leading direction and variance.
    const full = principalComponents(rows, centre, 3);
    expect(Math.abs(dot(full.components[0]!, components[0]!))).toBeCloseTo(1, 6);
    expect(full.variances[0]!).toBeCloseTo(variances[0]!, 6);
  });

  it('with more rows than columns the covariance\'s own eigenvectors, the same way', () => {
    const rows = [[1, 0], [-1, 0], [0, 0.1], [0, -0.1]];
    const { components, variances } = principalComponents(rows, [0, 0], 2);
    expect(Math.abs(components[0]![0]!)).toBeCloseTo(1, 6);
    expect(variances[0]!).toBeCloseTo(0.5, 6);
    expect(variances[1]!).toBeCloseTo(0.005, 6);
  });
});

describe('the genres\' discriminant (measure/fit/sound-fit.ts)', () => {
  const dot = (a: readonly number[], b: readonly number[]): number => a.reduce((s, v, i) => s + v * b[i]!, 0);
  /** Rows of three numbers: the classes apart along the first, a wide spread along the second, a little noise. */
  const rowsOf = (means: readonly number[], seed: number): number[][] => {
    const random = rng(seed);
    return means.map((m) => [m + (random() - 0.5) * 0.4, (random() - 0.5) * 10, (random() - 0.5) * 0.4]);
  };

  it('finds the direction that tells the classes apart, not the one they spread most along; a one-member class is left out', () => {
    const classes = ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'b', 'c', 'c', 'c', 'c', 'lone'];
    const rows = rowsOf(classes.map((c) => ({ a: -2, b: 0, c: 2, lone: 40 })[c]!), 3);
    const { components, centre } = discriminant(rows, classes, 5, 0);
    // Three classes kept: at most two directions; the first nearly the first axis.
    expect(components).toHaveLength(2);
    const first = components[0]!;
    expect(Math.abs(first[0]!) / Math.hypot(...first)).toBeGreaterThan(0.95);
    // The lone row's 40 does not pull the centre.
    expect(Math.abs(centre[0]!)).toBeLessThan(0.5);
  });

  it('a row of two classes counts as half a row in each: the same directions as a row of one class written twice and a row of two written once for each', () => {
    const random = rng(11);
    // Every third row has one class; the others two.
    const labels: string[][] = Array.from({ length: 24 }, (_, i) => (i % 3 === 0 ? [['pop', 'rock', 'jazz'][i % 4 === 0 ? 0 : 2]!] : [['pop', 'rock', 'jazz'][i % 3]!, ['rock', 'jazz', 'blues'][(i * 7) % 3]!]));
    const rows = labels.map(([x]) => [({ pop: -1, rock: 0, jazz: 1 })[x!]! + (random() - 0.5), (random() - 0.5) * 4, random()]);
    const both = discriminant(rows, labels, 2, 0.3);
    const twice = discriminant(labels.flatMap((_, i) => [rows[i]!, rows[i]!]), labels.flatMap((l) => [l[0]!, l[l.length - 1]!]), 2, 0.3);
    expect(both.components).toHaveLength(twice.components.length);
    both.components.forEach((c, k) => expect(Math.abs(dot(c, twice.components[k]!)) / Math.hypot(...c) / Math.hypot(...twice.components[k]!)).toBeCloseTo(1, 6));
    both.centre.forEach((v, j) => expect(v).toBeCloseTo(twice.centre[j]!, 9));
    // Counted once per class whatever its weight would be: every row at full weight in each of its classes reads otherwise.
    const fullWeight = discriminant(labels.flatMap((l, i) => l.map(() => rows[i]!)), labels.flat(), 2, 0.3);
    expect(fullWeight.centre.some((v, j) => Math.abs(v - both.centre[j]!) > 1e-3)).toBe(true);
    // One class in a list is the class itself.
    const single = discriminant(rows, labels.map(([x]) => x!), 2, 0.3);
    const listed = discriminant(rows, labels.map(([x]) => [x!, x!]), 2, 0.3);
    expect(listed.components).toEqual(single.components);
  });

  it('over the frames\' supervectors: one block whose numbers are the discriminant of the whitened components, folded into the supervector\'s own directions', () => {
    const random = rng(5);
    // Six songs of two kinds, 60 frames each: the kinds' frames differ in their first coefficients.
    const kinds = ['loud', 'soft', 'loud', 'soft', 'loud', 'soft'];
    const frames = kinds.map((k) => Float32Array.from({ length: 60 * CEPSTRAL_DIMS }, (_, i) => (i % CEPSTRAL_DIMS < 3 ? (k === 'loud' ? 1.5 : -1.5) : 0) + (random() - 0.5) * 2));
    const recipe = { components: 2, frameStride: 2, relevance: 1, projection: 4, power: 0.25, weight: 1, discriminant: { directions: 3, shrinkage: 0.5, weight: 0.7 } };
    const fitted = fitFrames(frames, recipe, kinds);
    const block = fitted.discriminant!;
    expect(block.weight).toBe(0.7);
    expect(block.offset).toHaveLength(1); // two kinds: one direction
    expect(block.matrix).toHaveLength(2 * CEPSTRAL_DIMS);
    // By hand: the supervectors' components whitened, their discriminant, applied in two steps.
    const vectors = frames.map((f) => supervector(fitted.gmm, f, 1));
    const { mean } = columnStats(vectors);
    const pca = principalComponentsOfFewRows(vectors, mean, 4);
    const z = vectors.map((x) => pca.components.map((c, k) => dot(x.map((v, j) => v - mean[j]!), c) / Math.sqrt(pca.variances[k]!)));
    const lda = discriminant(z, kinds, 3, 0.5);
    const folded = vectors.map((x) => block.offset[0]! + x.reduce((s, v, i) => s + v * block.matrix[i]![0]!, 0));
    const twoSteps = z.map((r) => dot(r.map((v, k) => v - lda.centre[k]!), lda.components[0]!));
    folded.forEach((v, i) => expect(v).toBeCloseTo(twoSteps[i]!, 6));
    // And it tells the kinds apart: every loud song on one side of every soft one.
    const loud = folded.filter((_, i) => kinds[i] === 'loud');
    const soft = folded.filter((_, i) => kinds[i] === 'soft');
    expect(Math.min(...loud) > Math.max(...soft) || Math.max(...loud) < Math.min(...soft)).toBe(true);
    // As many components as songs: the last has no spread and is left out of the whitening (it would be blown up).
    const all = fitFrames(frames, { ...recipe, projection: 8 }, kinds);
    expect(all.block.offset).toHaveLength(6);
    const side = vectors.map((x) => all.discriminant!.offset[0]! + x.reduce((s, v, i) => s + v * all.discriminant!.matrix[i]![0]!, 0));
    expect(side.every(Number.isFinite)).toBe(true);
    expect(Math.max(...side.map(Math.abs))).toBeLessThan(100);
    const loudAll = side.filter((_, i) => kinds[i] === 'loud');
    const softAll = side.filter((_, i) => kinds[i] === 'soft');
    expect(Math.min(...loudAll) > Math.max(...softAll) || Math.max(...loudAll) < Math.min(...softAll)).toBe(true);
    // Without genres, or without the recipe's discriminant, no such block.
    expect(fitFrames(frames, recipe).discriminant).toBeUndefined();
  });

  it('over the tagger\'s layer (musicnn/2): genre directions among the layer\'s components, and the models\' embedding with the signal path\'s vector beside', () => {
    const random = rng(8);
    // Twenty layers of 12 numbers: two genres apart along the 4th number, a wide spread along the 1st.
    const genres = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? ['rock'] : ['jazz', 'vocal']));
    const layers = genres.map((g) => Array.from({ length: 12 }, (_, j) => (j === 0 ? (random() - 0.5) * 8 : j === 3 ? (g[0] === 'rock' ? 1 : -1) : 0) + (random() - 0.5) * 0.3));
    const classifiers = layers.map(() => CLASSIFIER_ORDER.map(() => random()));
    const recipe = { components: 6, power: 0.25, classifierWeight: 0.2, discriminant: { directions: 4, shrinkage: 0.5, weight: 0.7 }, signalWeight: 1 };
    const w = fitModels(layers, classifiers, recipe, genres);
    expect(w.components).toHaveLength(6);
    expect(w.signal).toEqual({ weight: 1 });
    // Two genres (jazz and vocal always together count as two classes with the same rows): their directions over the layer.
    const block = w.discriminant!;
    expect(block.weight).toBe(0.7);
    expect(block.matrix).toHaveLength(12);
    const first = block.matrix.map((row) => row[0]!);
    expect(Math.abs(first[3]!) / Math.hypot(...first)).toBeGreaterThan(0.9);
    // The embedding: components, classifiers, directions, then the signal path's vector at unit length times its weight.
    const signal = [3, 0, 4];
    const classes = Object.fromEntries(CLASSIFIER_ORDER.map((c, i) => [c, classifiers[0]![i]!])) as Parameters<typeof modelsEmbedding>[1];
    const e = modelsEmbedding(layers[0]!, classes, signal, { models: w })!;
    expect(e.vector).toHaveLength(6 + CLASSIFIER_ORDER.length + block.offset.length + 3);
    expect(e.vector.slice(-3)).toEqual([0.6, 0, 0.8]);
    const directions = e.vector.slice(6 + CLASSIFIER_ORDER.length, 6 + CLASSIFIER_ORDER.length + block.offset.length);
    expect(Math.hypot(...directions)).toBeCloseTo(0.7, 5);
    // Rock and jazz fall on either side along the first direction.
    const side = layers.map((l) => block.offset[0]! + l.reduce((s, v, i) => s + v * block.matrix[i]![0]!, 0));
    const rock = side.filter((_, i) => genres[i]![0] === 'rock');
    const jazz = side.filter((_, i) => genres[i]![0] === 'jazz');
    expect(Math.min(...rock) > Math.max(...jazz) || Math.max(...rock) < Math.min(...jazz)).toBe(true);
    // musicnn/1's recipe: neither.
    const before = fitModels(layers, classifiers, { components: 6, power: 0.25, classifierWeight: 0.2 }, genres);
    expect(before.discriminant).toBeUndefined();
    expect(modelsEmbedding(layers[0]!, classes, undefined, { models: before })!.vector).toHaveLength(6 + CLASSIFIER_ORDER.length);
  });
});
