import { principalComponents, principalComponentsOfFewRows } from '../../../measure/fit/sound-fit';
import { rng } from '../../../measure/audio/audio-signals';

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
