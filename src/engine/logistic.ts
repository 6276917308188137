/**
 * Logistic formulas: the shape every fitted probability of the engine takes (valence, the key's
 * and the tempo's confidences). Their weights are data, fitted by the benches that write them.
 */
export interface LogisticFormula {
  bias: number;
  weights: Readonly<Record<string, number>>;
}

/** bias + Σ weight · input, then the logistic function; an input the row lacks counts 0. */
export function logistic(f: LogisticFormula, row: Readonly<Record<string, number>>): number {
  let z = f.bias;
  for (const [name, w] of Object.entries(f.weights)) {
    const v = row[name];
    if (v !== undefined && Number.isFinite(v)) z += w * v;
  }
  return 1 / (1 + Math.exp(-z));
}

const EPS = 1e-9;

/**
 * How a decision's winner stands, as a calibration reads it: the log odds of its probability p₁
 * and its lead over the runner-up's p₂, ln(p₁ / p₂).
 */
export function winnerLead(p1: number, p2: number): { logit: number; margin: number } {
  return { logit: Math.log((p1 + EPS) / (1 - p1 + EPS)), margin: logRatio(p1, p2) };
}

/** ln(a / b), both kept off zero. */
export function logRatio(a: number, b: number): number {
  return Math.log((a + EPS) / (b + EPS));
}
