import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DESCRIPTORS, columnOf, orderNameOf, pathOf } from '../../../src/core/descriptors';

describe('the descriptor registry', () => {
  it('describes each descriptor with the sentence docs/FEATURES.md gives it (one source of each text)', () => {
    const features = readFileSync(path.resolve(__dirname, '../../../docs/FEATURES.md'), 'utf8');
    for (const d of DESCRIPTORS) expect(features).toContain(`| **${pathOf(d)}** | ${d.description} |`);
  });

  it('names each one once, with a column and an order name of its own', () => {
    const columns = DESCRIPTORS.map(columnOf);
    expect(new Set(columns).size).toBe(columns.length);
    expect(columnOf({ name: 'happy', group: 'mood' })).toBe('mood_happy');
    expect(orderNameOf({ name: 'happy', group: 'mood' })).toBe('MOOD_HAPPY');
    expect(orderNameOf({ name: 'energy', group: 'descriptor' })).toBe('ENERGY');
    for (const d of DESCRIPTORS) expect(d.range.min).toBeLessThan(d.range.max);
  });
});
