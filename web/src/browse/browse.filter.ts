import type { TrackFilter, TrackOrder, TrackOrderField } from '../gql/graphql';

/** What the browse form offers, from the API's `descriptors` (browseVocabulary). */
export interface BrowseVocabulary {
  /** The moods, by name, with their labels. */
  readonly moods: readonly (readonly [string, string])[];
  /** The orders, with their labels: the two of every track, a tag's probability, then each descriptor browse orders by. */
  readonly orders: readonly (readonly [TrackOrderField, string])[];
  /** The tagger's tags, as the API spells them (taggerTags). */
  readonly tags: readonly string[];
}

/** The orders every track has, and the chosen tag's probability, before the descriptors'. */
const FIXED_ORDERS: readonly (readonly [TrackOrderField, string])[] = [
  ['ANALYSED_AT', 'Recently analysed'],
  ['TEMPO', 'Tempo'],
  ['TAG', 'Tag probability'],
];

/** The browse form's choices from the API's list of descriptors. */
export function browseVocabulary(
  descriptors: readonly { name: string; group: string; label: string; orderField?: string | null }[],
  tags: readonly string[] = [],
): BrowseVocabulary {
  return {
    tags,
    moods: descriptors.filter((d) => d.group === 'MOOD' && d.orderField).map((d) => [d.name, d.label] as const),
    orders: [...FIXED_ORDERS, ...descriptors.flatMap((d) => (d.orderField ? [[d.orderField as TrackOrderField, d.label] as const] : []))],
  };
}

/** The browse form as the URL keeps it: every field a string, as typed. */
export interface BrowseForm {
  /** A mood's name, or '' for any. */
  mood: string;
  /** Lowest score of `mood`, 0–1. */
  moodMin: string;
  tempoMin: string;
  tempoMax: string;
  /** Pitch classes, any of which matches. */
  keys: number[];
  /** '1' major, '0' minor, '' either. */
  mode: '' | '0' | '1';
  /** One of the tagger's tags, or '' for any. */
  tag: string;
  /** The tag is among the track's n most probable, 1–50. */
  tagTop: string;
  /** TAG: the probability of `tag` (no tag: the default order). */
  order: TrackOrderField;
  direction: 'ASC' | 'DESC';
}

export const EMPTY_FORM: BrowseForm = { mood: '', moodMin: '0.5', tempoMin: '', tempoMax: '', keys: [], mode: '', tag: '', tagTop: '3', order: 'ANALYSED_AT', direction: 'DESC' };


/** A number the form may hold, or undefined for an empty or unreadable field. */
function number(text: string, min: number, max: number): number | undefined {
  if (text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) && n >= min && n <= max ? n : undefined;
}

/** The form a URL's query describes (?mood=happy&moodMin=0.6&tempoMin=90&key=0,9&mode=0&tag=jazz&tagTop=3&order=TEMPO&dir=ASC); unknown values are dropped. */
export function formFromParams(params: URLSearchParams, vocabulary: BrowseVocabulary): BrowseForm {
  const mood = params.get('mood');
  const mode = params.get('mode');
  const order = params.get('order');
  const tag = params.get('tag');
  const keys = (params.get('key') ?? '')
    .split(',')
    .filter((k) => /^\d{1,2}$/.test(k))
    .map(Number)
    .filter((k) => k <= 11);
  return {
    mood: vocabulary.moods.some(([m]) => m === mood) ? mood! : '',
    moodMin: params.get('moodMin') ?? EMPTY_FORM.moodMin,
    tempoMin: params.get('tempoMin') ?? '',
    tempoMax: params.get('tempoMax') ?? '',
    keys: [...new Set(keys)].sort((a, b) => a - b),
    mode: mode === '0' || mode === '1' ? mode : '',
    tag: vocabulary.tags.find((t) => t === tag) ?? '',
    tagTop: params.get('tagTop') ?? EMPTY_FORM.tagTop,
    order: vocabulary.orders.find(([o]) => o === order)?.[0] ?? EMPTY_FORM.order,
    direction: params.get('dir') === 'ASC' ? 'ASC' : 'DESC',
  };
}

/** The URL query of a form: only what differs from the empty form, so a plain /browse stays plain. */
export function paramsFromForm(form: BrowseForm): URLSearchParams {
  const params = new URLSearchParams();
  if (form.mood) {
    params.set('mood', form.mood);
    params.set('moodMin', form.moodMin);
  }
  if (form.tempoMin.trim()) params.set('tempoMin', form.tempoMin.trim());
  if (form.tempoMax.trim()) params.set('tempoMax', form.tempoMax.trim());
  if (form.keys.length > 0) params.set('key', form.keys.join(','));
  if (form.mode) params.set('mode', form.mode);
  if (form.tag) {
    params.set('tag', form.tag);
    params.set('tagTop', form.tagTop);
  }
  if (form.order !== EMPTY_FORM.order) params.set('order', form.order);
  if (form.direction !== EMPTY_FORM.direction) params.set('dir', form.direction);
  return params;
}

/** The arguments of `tracks` for a form: null filter when nothing is asked. */
export function variablesOfForm(form: BrowseForm): { filter: TrackFilter | null; orderBy: TrackOrder } {
  const filter: TrackFilter = {};
  const moodMin = number(form.moodMin, 0, 1);
  // The mood is one the API listed (formFromParams and the form's select offer no other).
  if (form.mood && moodMin !== undefined) filter.mood = { [form.mood]: { min: moodMin } };
  const tempoMin = number(form.tempoMin, 0, 1000);
  const tempoMax = number(form.tempoMax, 0, 1000);
  if (tempoMin !== undefined || tempoMax !== undefined) {
    filter.tempo = { ...(tempoMin !== undefined ? { min: tempoMin } : {}), ...(tempoMax !== undefined ? { max: tempoMax } : {}) };
  }
  if (form.keys.length > 0) filter.key = form.keys;
  if (form.mode) filter.mode = Number(form.mode);
  const tagTop = number(form.tagTop, 1, 50);
  // The tag is one the API listed (formFromParams and the form's select offer no other).
  if (form.tag && tagTop !== undefined && Number.isInteger(tagTop)) filter.tags = [{ name: form.tag, top: tagTop }];
  const orderBy: TrackOrder =
    form.order !== 'TAG' ? { field: form.order, direction: form.direction } : form.tag ? { field: 'TAG', tag: form.tag, direction: form.direction } : { field: EMPTY_FORM.order, direction: form.direction };
  return { filter: Object.keys(filter).length > 0 ? filter : null, orderBy };
}
