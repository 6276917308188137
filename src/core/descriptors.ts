/*
 * The descriptor registry: every 0–1 descriptor and mood an analysis carries, named once. The
 * surfaces derive from it: the contract schema and the OpenAPI document, the REST and GraphQL
 * analysis objects, the stored columns (added when missing), browse's filters and orderings, and
 * the similarity distance. Adding a descriptor is an entry here and its measurement in the engine.
 * Each description is the sentence docs/FEATURES.md gives for it (a test holds them equal).
 */

import { DESCRIPTORS, type Descriptor } from './descriptors.list';

export { DESCRIPTORS, type Descriptor };

type Entry = (typeof DESCRIPTORS)[number];
/** The top-level descriptors' names (`energy` …). */
export type DescriptorName = Extract<Entry, { group: 'descriptor' }>['name'];
/** The moods' names (`happy` …). */
export type MoodName = Extract<Entry, { group: 'mood' }>['name'];

/** The values of the top-level descriptors, by name. */
export type DescriptorValues = Record<DescriptorName, number>;
/** Mood scores, by name. */
export type MoodValues = Record<MoodName, number>;

/** The stored column of a descriptor: its name, or `mood_<name>` for a mood. */
export function columnOf(d: Pick<Descriptor, 'name' | 'group'>): string {
  return d.group === 'mood' ? `mood_${d.name}` : d.name;
}

/** The name of its browse ordering (`ENERGY`, `MOOD_HAPPY`). */
export function orderNameOf(d: Pick<Descriptor, 'name' | 'group'>): string {
  return columnOf(d).toUpperCase();
}

/** Its path in the analysis object, for messages (`energy`, `mood.happy`). */
export function pathOf(d: Pick<Descriptor, 'name' | 'group'>): string {
  return d.group === 'mood' ? `mood.${d.name}` : d.name;
}

/** The registry's top-level descriptors, in order. */
export const TOP_LEVEL: readonly Descriptor[] = DESCRIPTORS.filter((d) => d.group === 'descriptor');
/** The registry's moods, in order. */
export const MOODS: readonly Descriptor[] = DESCRIPTORS.filter((d) => d.group === 'mood');

/** The value of a descriptor in features shaped as the analysis object (top-level fields and `mood`). */
export function valueOf(features: { mood: Readonly<Record<string, number>> } & object, d: Pick<Descriptor, 'name' | 'group'>): number | undefined {
  const value = d.group === 'mood' ? features.mood[d.name] : (features as Record<string, unknown>)[d.name];
  return typeof value === 'number' ? value : undefined;
}

/** The registry's top-level descriptors of an object that has them (and more), in the registry's order. */
export function pickDescriptors(from: DescriptorValues): DescriptorValues {
  const out = {} as DescriptorValues;
  for (const d of TOP_LEVEL) out[d.name as DescriptorName] = from[d.name as DescriptorName];
  return out;
}

/** The registry's example values: top-level descriptors and a `mood` object, as an analysis holds them. */
export function exampleDescriptors(): DescriptorValues & { mood: MoodValues } {
  const top: Record<string, number> = {};
  const mood: Record<string, number> = {};
  for (const d of DESCRIPTORS) (d.group === 'mood' ? mood : top)[d.name] = d.example;
  return { ...(top as DescriptorValues), mood: mood as MoodValues };
}

/** A descriptor as the API lists it to clients (GraphQL `descriptors`). */
export interface DescriptorListing {
  name: string;
  group: 'DESCRIPTOR' | 'MOOD';
  /** Its name for people: the name, capitalised. */
  label: string;
  description: string;
  min: number;
  max: number;
  /** Its browse ordering (`ENERGY`, `MOOD_HAPPY`), or null when browse neither filters nor orders by it. */
  orderField: string | null;
}

/** The registry as clients list it, in order. */
export function descriptorListings(): DescriptorListing[] {
  return DESCRIPTORS.map((d: Descriptor) => ({
    name: d.name,
    group: d.group === 'mood' ? 'MOOD' : 'DESCRIPTOR',
    label: d.name.charAt(0).toUpperCase() + d.name.slice(1),
    description: d.description,
    min: d.range.min,
    max: d.range.max,
    orderField: d.browse ? orderNameOf(d) : null,
  }));
}
