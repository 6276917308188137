import { EigenvalueDecomposition, Matrix } from 'ml-matrix';
import type { EmbeddingBlock, FramesEmbeddingWeights, ModelsEmbeddingWeights, SignalEmbeddingWeights } from '../../src/engine/sound.embedding';
import { CEPSTRAL_DIMS, supervector } from '../../src/engine/sound.frames';
import { fitDiagonalGmm } from './gmm';

/*
 * The fits behind the sound embeddings (src/engine/sound.embedding.ts): standardisation, principal
 * components (plain, or scaled towards whitening), and a shrunk linear discriminant; and how an
 * embedding is judged on labelled songs (the ten nearest of each: the same artist among them,
 * precision for a label), with the artists left out in turn. bench/similarity.ts runs them.
 */

/** Mean and standard deviation of each column over the rows (NaN left out; a constant column's spread 1). */
export function columnStats(rows: readonly (readonly number[])[]): { mean: number[]; std: number[] } {
  const d = rows[0]?.length ?? 0;
  const mean = new Array<number>(d).fill(0);
  const std = new Array<number>(d).fill(0);
  for (let j = 0; j < d; j++) {
    const values = rows.map((r) => r[j]!).filter(Number.isFinite);
    const m = values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
    const v = values.length ? values.reduce((s, x) => s + (x - m) ** 2, 0) / values.length : 0;
    mean[j] = m;
    std[j] = v > 1e-18 ? Math.sqrt(v) : 1;
  }
  return { mean, std };
}

/** The covariance of the rows (each centred by `centre`), d × d. */
function covariance(rows: readonly (readonly number[])[], centre: readonly number[]): Matrix {
  const d = centre.length;
  const x = new Matrix(rows.map((r) => r.map((v, j) => v - centre[j]!)));
  return d === 0 ? Matrix.zeros(0, 0) : x.transpose().mmul(x).div(Math.max(1, rows.length));
}

/** The eigenvectors (columns) and eigenvalues of a symmetric matrix, largest eigenvalue first. */
function eigenDescending(m: Matrix): { values: number[]; vectors: Matrix } {
  const evd = new EigenvalueDecomposition(m, { assumeSymmetric: true });
  const order = evd.realEigenvalues.map((v, i) => [v, i] as const).sort((a, b) => b[0] - a[0]);
  const vectors = new Matrix(m.rows, order.length);
  order.forEach(([, i], k) => vectors.setColumn(k, evd.eigenvectorMatrix.getColumn(i)));
  return { values: order.map(([v]) => v), vectors };
}

/** The `k` leading principal components of the rows (about their mean `centre`): each a row of d numbers, with its variance. */
export function principalComponents(rows: readonly (readonly number[])[], centre: readonly number[], k: number): { components: number[][]; variances: number[] } {
  const { values, vectors } = eigenDescending(covariance(rows, centre));
  const n = Math.min(k, values.length);
  return { components: Array.from({ length: n }, (_, c) => vectors.getColumn(c)), variances: values.slice(0, n).map((v) => Math.max(v, 1e-12)) };
}

/**
 * The same for rows with more numbers than there are rows (a song's supervector has more than
 * there are songs), at a fraction of the cost: the eigenvectors u of the rows' n × n Gram matrix
 * X·Xᵀ/n give the covariance's, Xᵀ·u at unit length, with the same eigenvalues; at most n of
 * them, where principalComponents would add directions of no variance up to k.
 */
export function principalComponentsOfFewRows(rows: readonly (readonly number[])[], centre: readonly number[], k: number): { components: number[][]; variances: number[] } {
  const x = new Matrix(rows.map((r) => r.map((v, j) => v - centre[j]!)));
  const { values, vectors } = eigenDescending(x.mmul(x.transpose()).div(rows.length));
  const n = Math.min(k, values.length);
  const xt = x.transpose();
  const components = Array.from({ length: n }, (_, c) => {
    const v = xt.mmul(Matrix.columnVector(vectors.getColumn(c))).getColumn(0);
    const norm = Math.hypot(...v);
    return v.map((a) => (norm > 0 ? a / norm : 0));
  });
  return { components, variances: values.slice(0, n).map((v) => Math.max(v, 1e-12)) };
}

/** A block projecting onto components (rows of d numbers) about `centre`: the matrix d × k and the offset −centre·C. */
export function projectionBlock(components: readonly number[][], centre: readonly number[], weight: number, scale?: readonly number[]): EmbeddingBlock {
  const d = centre.length;
  const matrix = Array.from({ length: d }, (_, i) => components.map((c, k) => c[i]! * (scale?.[k] ?? 1)));
  const offset = components.map((c, k) => -c.reduce((s, v, i) => s + v * centre[i]!, 0) * (scale?.[k] ?? 1));
  return { matrix, offset, weight };
}

/**
 * A linear discriminant of the rows' classes: the directions along which the classes' means lie
 * farthest apart against the spread within them. A row may belong to several classes (a song's
 * AllMusic genres): it then counts in each with weight 1 / its number of classes. The within-class
 * covariance is shrunk towards its mean variance (`shrinkage` of the way: a few hundred songs
 * cannot estimate a 255-dimensional covariance), then the generalised eigenproblem Sb·v = λ·Sw·v
 * is solved through Sw^(−½); the `k` leading directions, each with vᵀ·Sw·v = 1. Classes with a
 * single row are left out.
 */
export function discriminant(rows: readonly (readonly number[])[], classes: readonly (string | readonly string[])[], k: number, shrinkage: number): { components: number[][]; centre: number[] } {
  const byClass = new Map<string, { row: number; weight: number }[]>();
  classes.forEach((c, row) => {
    const names = typeof c === 'string' ? [c] : [...new Set(c)];
    for (const name of names) byClass.set(name, [...(byClass.get(name) ?? []), { row, weight: 1 / names.length }]);
  });
  const kept = [...byClass.values()].filter((members) => members.length > 1);
  const total = kept.flat().reduce((s, m) => s + m.weight, 0);
  const d = rows[0]!.length;
  const centre = new Array<number>(d).fill(0);
  for (const { row, weight } of kept.flat()) rows[row]!.forEach((v, j) => (centre[j]! += (v * weight) / total));
  let within = Matrix.zeros(d, d);
  let between = Matrix.zeros(d, d);
  for (const members of kept) {
    const mass = members.reduce((s, m) => s + m.weight, 0);
    const mean = new Array<number>(d).fill(0);
    for (const { row, weight } of members) rows[row]!.forEach((v, j) => (mean[j]! += (v * weight) / mass));
    const x = new Matrix(members.map(({ row, weight }) => rows[row]!.map((v, j) => (v - mean[j]!) * Math.sqrt(weight / total))));
    within = within.add(x.transpose().mmul(x));
    const m = Matrix.columnVector(mean.map((v, j) => v - centre[j]!));
    between = between.add(m.mmul(m.transpose()).mul(mass / total));
  }
  const meanVariance = within.trace() / d;
  const shrunk = within.mul(1 - shrinkage).add(Matrix.eye(d, d).mul(shrinkage * meanVariance));
  const { values, vectors } = eigenDescending(shrunk);
  // Sw^(−½) = V·diag(λ^(−½))·Vᵀ
  const inverseRoot = vectors.mmul(Matrix.diag(values.map((v) => 1 / Math.sqrt(Math.max(v, 1e-12))))).mmul(vectors.transpose());
  const { vectors: u } = eigenDescending(inverseRoot.mmul(between).mmul(inverseRoot));
  const w = inverseRoot.mmul(u);
  const n = Math.min(k, kept.length - 1, d);
  return { components: Array.from({ length: n }, (_, c) => w.getColumn(c)), centre };
}

/** The signal path's weights fitted on standardised-by-themselves rows: z, then principal components and a discriminant. */
export function fitSignal(rows: readonly (readonly number[])[], genres: readonly (string | readonly string[])[], o: { components: number; discriminants: number; shrinkage: number; discriminantWeight: number }): SignalEmbeddingWeights {
  const { mean, std } = columnStats(rows);
  const z = rows.map((r) => r.map((v, j) => (Number.isFinite(v) ? (v - mean[j]!) / std[j]! : 0)));
  const zero = new Array<number>(mean.length).fill(0);
  const pca = principalComponents(z, zero, o.components);
  const lda = discriminant(z, genres, o.discriminants, o.shrinkage);
  return { mean, std, blocks: [projectionBlock(pca.components, zero, 1), projectionBlock(lda.components, lda.centre, o.discriminantWeight)] };
}

/**
 * The bag-of-frames part of the signal path's weights (src/engine/sound.frames.ts): a mixture of
 * `components` Gaussians fitted on every `frameStride`-th frame of the fit songs, their
 * supervectors' `projection` leading components each scaled by variance^(−power), at `weight`;
 * with `discriminant` and the songs' genres, also a linear discriminant of the genres over the
 * same components whitened, folded into one block over the supervector.
 */
export function fitFrames(
  frames: readonly Float32Array[],
  o: { components: number; frameStride: number; relevance: number; projection: number; power: number; weight: number; discriminant?: { directions: number; shrinkage: number; weight: number } },
  genres?: readonly (string | readonly string[])[],
): FramesEmbeddingWeights {
  const sample: number[] = [];
  for (const f of frames) for (let r = 0; r < f.length / CEPSTRAL_DIMS; r += o.frameStride) sample.push(...f.subarray(r * CEPSTRAL_DIMS, (r + 1) * CEPSTRAL_DIMS));
  const fitted = fitDiagonalGmm(Float64Array.from(sample), CEPSTRAL_DIMS, o.components);
  const gmm = { dims: CEPSTRAL_DIMS, weights: Array.from(fitted.weights), means: Array.from(fitted.means), variances: Array.from(fitted.variances) };
  const vectors = frames.map((f) => supervector(gmm, f, o.relevance));
  const { mean } = columnStats(vectors);
  const pca = principalComponentsOfFewRows(vectors, mean, o.projection);
  const block = projectionBlock(pca.components, mean, o.weight, pca.variances.map((v) => v ** -o.power));
  if (!o.discriminant || !genres) return { gmm, relevance: o.relevance, block };
  const discriminantBlock = discriminantOverComponents(vectors, mean, pca, genres, o.discriminant);
  return { gmm, relevance: o.relevance, block, ...(discriminantBlock ? { discriminant: discriminantBlock } : {}) };
}

/**
 * A linear discriminant of the genres over the rows' principal components whitened, folded into
 * one block over the rows themselves. The discriminant is fitted on z = (x − mean)·C·diag(λ^−½);
 * its directions w become directions of x, u = C·diag(λ^−½)·w, about the same centre. Only the
 * components the rows spread along: as many rows as components leave the last without variance,
 * which whitening would blow up. Undefined when fewer than two genres have two rows each.
 */
export function discriminantOverComponents(
  rows: readonly (readonly number[])[],
  mean: readonly number[],
  pca: { components: number[][]; variances: number[] },
  genres: readonly (string | readonly string[])[],
  o: { directions: number; shrinkage: number; weight: number },
): EmbeddingBlock | undefined {
  const spread = pca.variances.filter((v) => v > 1e-9 * pca.variances[0]!).length;
  const whitened = projectionBlock(pca.components.slice(0, spread), mean, 1, pca.variances.slice(0, spread).map((v) => v ** -0.5));
  const toWhitened = new Matrix(whitened.matrix);
  const z = new Matrix(rows.map((r) => [...r])).mmul(toWhitened).addRowVector(whitened.offset).to2DArray();
  const lda = discriminant(z, genres, o.directions, o.shrinkage);
  if (lda.components.length === 0) return undefined;
  const directions = new Matrix(lda.components).transpose();
  const offset = Matrix.rowVector(whitened.offset.map((b, k) => b - lda.centre[k]!)).mmul(directions).getRow(0);
  return { matrix: toWhitened.mmul(directions).to2DArray(), offset, weight: o.weight };
}

/**
 * The models' weights: the layer's principal components scaled by variance^(−power), and the
 * classifiers' mean; from `musicnn/2` on (with `discriminant` and the songs' genres), a discriminant
 * of the genres over those components whitened, and the signal path's embedding beside at `signalWeight`.
 */
export function fitModels(
  layers: readonly (readonly number[])[],
  classifiers: readonly (readonly number[])[],
  o: { components: number; power: number; classifierWeight: number; discriminant?: { directions: number; shrinkage: number; weight: number }; signalWeight?: number },
  genres?: readonly (string | readonly string[])[],
): ModelsEmbeddingWeights {
  const mean = columnStats(layers).mean;
  const pca = principalComponents(layers, mean, o.components);
  const discriminantBlock = o.discriminant && genres ? discriminantOverComponents(layers, mean, pca, genres, o.discriminant) : undefined;
  return {
    mean,
    components: pca.components,
    scale: pca.variances.map((v) => v ** -o.power),
    classifiers: { mean: columnStats(classifiers).mean, weight: o.classifierWeight },
    ...(discriminantBlock ? { discriminant: discriminantBlock } : {}),
    ...(o.signalWeight !== undefined ? { signal: { weight: o.signalWeight } } : {}),
  };
}

/** Cosine similarity of two vectors. */
function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

export interface Labelled {
  artist: string;
  genre: string;
  quadrant: string;
}

export interface NeighbourScores {
  /** Of the songs whose artist has another song in the set: the share with one among their ten nearest. */
  artist: number;
  /** Mean share of the ten nearest with the song's genre, and with its quadrant. */
  genre: number;
  quadrant: number;
  /** How many songs the artist figure is over. */
  withArtistMates: number;
}

/** The scores of the queries `queries` (indices), each against every other song, by cosine. */
export function neighbourScores(vectors: readonly (readonly number[])[], labels: readonly Labelled[], queries: readonly number[] = vectors.map((_, i) => i), k = 10): NeighbourScores {
  let artistHits = 0;
  let artistQueries = 0;
  let genre = 0;
  let quadrant = 0;
  for (const q of queries) {
    const nearest = vectors
      .map((v, i) => ({ i, s: i === q ? -Infinity : cosine(vectors[q]!, v) }))
      .sort((a, b) => b.s - a.s || a.i - b.i)
      .slice(0, k)
      .map((x) => x.i);
    const mine = labels[q]!;
    if (labels.some((l, i) => i !== q && l.artist === mine.artist)) {
      artistQueries++;
      if (nearest.some((i) => labels[i]!.artist === mine.artist)) artistHits++;
    }
    genre += nearest.filter((i) => labels[i]!.genre === mine.genre).length / k;
    quadrant += nearest.filter((i) => labels[i]!.quadrant === mine.quadrant).length / k;
  }
  return { artist: artistQueries ? artistHits / artistQueries : 0, genre: genre / queries.length, quadrant: quadrant / queries.length, withArtistMates: artistQueries };
}

/** Each song's fold, 0 … folds − 1: the artists shuffled by a seeded generator, then each given to the fold with the fewest songs so far. */
export function artistFolds(artists: readonly string[], folds: number, seed: number): number[] {
  let a = seed >>> 0;
  const random = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const unique = [...new Set(artists)].sort();
  for (let i = unique.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [unique[i], unique[j]] = [unique[j]!, unique[i]!];
  }
  const sizes = new Array<number>(folds).fill(0);
  const foldOf = new Map<string, number>();
  const count = (artist: string): number => artists.filter((x) => x === artist).length;
  for (const artist of unique.sort((x, y) => count(y) - count(x))) {
    const f = sizes.indexOf(Math.min(...sizes));
    foldOf.set(artist, f);
    sizes[f]! += count(artist);
  }
  return artists.map((x) => foldOf.get(x)!);
}

/**
 * The scores with the artists left out in turn: for each fold, `embed` is fitted on the other
 * folds' songs and embeds every song; the fold's songs are the queries, against all of them.
 */
export function leftOutScores(labels: readonly Labelled[], embed: (fitRows: readonly number[]) => number[][], folds = 5, seed = 0): NeighbourScores {
  const fold = artistFolds(labels.map((l) => l.artist), folds, seed);
  const parts: NeighbourScores[] = [];
  const sizes: number[] = [];
  for (let f = 0; f < folds; f++) {
    const fit = fold.flatMap((g, i) => (g === f ? [] : [i]));
    const queries = fold.flatMap((g, i) => (g === f ? [i] : []));
    parts.push(neighbourScores(embed(fit), labels, queries));
    sizes.push(queries.length);
  }
  const total = sizes.reduce((a, b) => a + b, 0);
  const mates = parts.reduce((s, p) => s + p.withArtistMates, 0);
  return {
    artist: parts.reduce((s, p) => s + p.artist * p.withArtistMates, 0) / Math.max(1, mates),
    genre: parts.reduce((s, p, i) => s + p.genre * sizes[i]!, 0) / total,
    quadrant: parts.reduce((s, p, i) => s + p.quadrant * sizes[i]!, 0) / total,
    withArtistMates: mates,
  };
}
