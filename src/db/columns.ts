import { DESCRIPTORS, columnOf, type DescriptorName, type MoodName } from '../core/descriptors';

/*
 * The analyses table's descriptor columns, from the descriptor registry: one REAL column per
 * descriptor and mood (`energy`, `mood_happy`). syncDescriptorColumns (migrations.ts) adds any
 * the table lacks, with the index browse orders by.
 */

/** The column names of the registry's descriptors, in registry order. */
export type DescriptorColumn = DescriptorName | `mood_${MoodName}`;

/** The values of the descriptor columns of a row. */
export type DescriptorColumnValues = Record<DescriptorColumn, number>;

export const DESCRIPTOR_COLUMNS: readonly DescriptorColumn[] = DESCRIPTORS.map((d) => columnOf(d) as DescriptorColumn);

/** Numeric columns tracks() can filter by ranges of and order by (besides seq); each has an index on (column, seq). */
export type OrderableColumn = 'tempo' | 'duration_ms' | 'loudness' | DescriptorColumn;
