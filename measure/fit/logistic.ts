import { Matrix, solve } from 'ml-matrix';

/** A fitted logistic model on named inputs: p = 1 / (1 + e^−(bias + Σ weight · input)). */
export interface LogisticFit {
  bias: number;
  weights: Record<string, number>;
}

/**
 * Ridge (L2) logistic regression by Newton's method (iteratively reweighted least squares).
 * The inputs are standardised before the penalty applies (so that λ weighs every input alike,
 * whatever its unit) and the weights returned are on the inputs as given. The bias is not
 * penalised. Inputs constant over the rows get weight 0.
 */
export function fitLogistic(rows: ReadonlyArray<Readonly<Record<string, number>>>, y: readonly boolean[], names: readonly string[], lambda: number): LogisticFit {
  const n = rows.length;
  const p = names.length;
  if (n !== y.length || n === 0) throw new Error('fitLogistic: one label for each row, and rows');
  const mean = names.map((k) => rows.reduce((s, r) => s + r[k]!, 0) / n);
  const sd = names.map((k, j) => Math.sqrt(rows.reduce((s, r) => s + (r[k]! - mean[j]!) ** 2, 0) / n));
  // Standardised design with a leading column of ones.
  const x = rows.map((r) => [1, ...names.map((k, j) => (sd[j]! > 0 ? (r[k]! - mean[j]!) / sd[j]! : 0))]);
  const beta = new Array<number>(p + 1).fill(0);
  for (let iter = 0; iter < 50; iter++) {
    const hessian = Matrix.zeros(p + 1, p + 1);
    const gradient = new Array<number>(p + 1).fill(0);
    for (let i = 0; i < n; i++) {
      const xi = x[i]!;
      let z = 0;
      for (let j = 0; j <= p; j++) z += beta[j]! * xi[j]!;
      const prob = 1 / (1 + Math.exp(-z));
      const w = Math.max(prob * (1 - prob), 1e-9);
      const r = (y[i] ? 1 : 0) - prob;
      for (let j = 0; j <= p; j++) {
        gradient[j]! += r * xi[j]!;
        for (let k = j; k <= p; k++) hessian.set(j, k, hessian.get(j, k) + w * xi[j]! * xi[k]!);
      }
    }
    for (let j = 0; j <= p; j++) {
      for (let k = 0; k < j; k++) hessian.set(j, k, hessian.get(k, j));
      if (j > 0) {
        hessian.set(j, j, hessian.get(j, j) + lambda);
        gradient[j]! -= lambda * beta[j]!;
      }
    }
    const step = solve(hessian, Matrix.columnVector(gradient)).to1DArray();
    let change = 0;
    for (let j = 0; j <= p; j++) {
      beta[j]! += step[j]!;
      change = Math.max(change, Math.abs(step[j]!));
    }
    if (change < 1e-8) break;
  }
  const weights: Record<string, number> = {};
  let bias = beta[0]!;
  names.forEach((k, j) => {
    const w = sd[j]! > 0 ? beta[j + 1]! / sd[j]! : 0;
    weights[k] = w;
    bias -= w * mean[j]!;
  });
  return { bias, weights };
}

/** The fitted model's linear score (its log-odds) for one row. */
export function logit(fit: LogisticFit, row: Readonly<Record<string, number>>): number {
  let z = fit.bias;
  for (const [k, w] of Object.entries(fit.weights)) z += w * row[k]!;
  return z;
}

/** The fitted model's probability for one row: the logistic function of its log-odds. */
export function probability(fit: LogisticFit, row: Readonly<Record<string, number>>): number {
  return 1 / (1 + Math.exp(-logit(fit, row)));
}

/**
 * Each item's probability by a ridge logistic regression (`names`, λ `lambda`) fitted on the
 * items of every other group: a calibration judged on groups it never saw.
 */
export function leftOutByGroup<T>(
  items: readonly T[],
  groupOf: (t: T) => string,
  rowOf: (t: T) => Readonly<Record<string, number>>,
  rightOf: (t: T) => boolean,
  names: readonly string[],
  lambda: number,
): Map<T, number> {
  const out = new Map<T, number>();
  for (const group of new Set(items.map(groupOf))) {
    const train = items.filter((t) => groupOf(t) !== group);
    const fit = fitLogistic(train.map(rowOf), train.map(rightOf), names, lambda);
    for (const t of items.filter((u) => groupOf(u) === group)) out.set(t, probability(fit, rowOf(t)));
  }
  return out;
}

/**
 * The area under the ROC curve of scores for a split: the chance that a random positive scores
 * above a random negative, ties counting half (the Mann-Whitney U over the product of the counts).
 * NaN when either side is empty.
 */
export function auc(scores: readonly number[], positive: readonly boolean[]): number {
  const order = scores.map((s, i) => [s, i] as const).sort((a, b) => a[0] - b[0]);
  let rankSum = 0;
  let pos = 0;
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) {
      if (positive[order[k]![1]]) {
        rankSum += rank;
        pos++;
      }
    }
    i = j + 1;
  }
  const neg = order.length - pos;
  return pos > 0 && neg > 0 ? (rankSum - (pos * (pos + 1)) / 2) / (pos * neg) : NaN;
}

/** A deterministic shuffle (mulberry32), so that the folds of every run are the same. */
export function seededShuffle<T>(items: readonly T[], seed: number): T[] {
  let s = seed >>> 0;
  const random = (): number => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * Cross-validated scores: each item scored by a model fitted on the other folds only (k folds,
 * stratified: each stratum's items dealt evenly round them; `repeats` shuffles). An item's score
 * is its mean over the repeats of what the model that did not see it said.
 */
export function crossValidated<T>(
  items: readonly T[],
  stratum: (t: T) => string,
  fit: (train: readonly T[]) => (t: T) => number,
  k = 10,
  repeats = 5,
): number[] {
  const index = new Map(items.map((t, i) => [t, i]));
  const sum = new Array<number>(items.length).fill(0);
  for (let r = 0; r < repeats; r++) {
    const folds: T[][] = Array.from({ length: k }, () => []);
    let dealt = 0;
    for (const [s, name] of [...new Set(items.map(stratum))].sort().entries()) {
      for (const t of seededShuffle(items.filter((x) => stratum(x) === name), 1 + r * 7919 + s * 104729)) folds[dealt++ % k]!.push(t);
    }
    folds.forEach((test, f) => {
      const score = fit(folds.filter((_, g) => g !== f).flat());
      for (const t of test) sum[index.get(t)!]! += score(t);
    });
  }
  return sum.map((s) => s / repeats);
}
