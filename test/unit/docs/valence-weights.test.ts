import { readFileSync } from 'node:fs';
import path from 'node:path';
import { valenceWeightsMarkdown } from '../../../measure/fit/valence-table';
import { VALENCE_MODELS, VALENCE_SIGNAL } from '../../../src/engine/valence';

describe('docs/FEATURES.md, "Valence"', () => {
  it('lists the weights the engine ships, every one of them', () => {
    const doc = readFileSync(path.resolve(__dirname, '../../../docs/FEATURES.md'), 'utf8');
    const listed = /<!-- valence-weights -->\n([\s\S]*?)\n<!-- \/valence-weights -->/.exec(doc);
    expect(listed).not.toBeNull();
    expect(listed![1]).toBe(valenceWeightsMarkdown(VALENCE_SIGNAL, VALENCE_MODELS));
    // Every input of both models appears as a row.
    for (const name of Object.keys(VALENCE_MODELS.weights)) expect(listed![1]).toContain(`| \`${name}\` |`);
  });
});
