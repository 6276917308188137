import type { LogisticFormula } from '../../src/engine/logistic';
import { byArousal } from '../../src/engine/valence';

const w = (x: number | undefined): string => (x === undefined ? '' : String(x));

/**
 * The shipped valence weights as docs/FEATURES.md lists them (between its
 * `<!-- valence-weights -->` markers): the signal model's inputs a row each, with the weight of
 * the input itself and of its product with arousal; then the models' inputs.
 */
export function valenceWeightsMarkdown(signal: LogisticFormula, models: LogisticFormula): string {
  const own = Object.keys(signal.weights).filter((k) => !k.endsWith(byArousal('')) && k !== 'arousal');
  const lines = [
    '| signal input | weight | × (arousal − 0.5) |',
    '|---|---:|---:|',
    `| (bias) | ${w(signal.bias)} | |`,
    `| arousal − 0.5 | ${w(signal.weights.arousal)} | |`,
    ...own.map((k) => `| \`${k}\` | ${w(signal.weights[k])} | ${w(signal.weights[byArousal(k)])} |`),
    '',
    '| models’ input | weight |',
    '|---|---:|',
    `| (bias) | ${w(models.bias)} |`,
    ...Object.entries(models.weights).map(([k, v]) => `| \`${k}\` | ${w(v)} |`),
  ];
  return lines.join('\n');
}
