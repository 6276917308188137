import type { LibraryMapQuery } from '../gql/graphql';

/*
 * The map's geometry and colours, apart from React: where a point of the map (0–1 both ways) is
 * drawn on a canvas for a view (zoom and centre), how the view follows zooming and panning, which
 * point is under the pointer, and which colour each point gets for a choice of colouring.
 */

export type MapPoint = LibraryMapQuery['soundMap']['points'][number];

/** What the map shows: the point of the map at the canvas' centre, and how many times larger than the whole map fitting the canvas. */
export interface View {
  zoom: number;
  cx: number;
  cy: number;
}

/** The whole map, fitting the canvas. */
export const HOME: View = { zoom: 1, cx: 0.5, cy: 0.5 };
/** Space kept around the whole map, CSS pixels. */
export const PAD = 16;
export const MIN_ZOOM = 1;
export const MAX_ZOOM = 64;
/** One press of Zoom in or Zoom out. */
export const ZOOM_STEP = 1.5;

/** CSS pixels a map unit spans at zoom 1: the whole map fits the shorter side, inside the padding. */
function unit(width: number, height: number): number {
  return Math.max(1, Math.min(width, height) - 2 * PAD);
}

/** Where a point of the map is on a canvas of this size (CSS pixels). */
export function toScreen(view: View, width: number, height: number, x: number, y: number): [number, number] {
  const scale = unit(width, height) * view.zoom;
  return [width / 2 + (x - view.cx) * scale, height / 2 + (y - view.cy) * scale];
}

/** The point of the map at a place of the canvas. */
export function toMap(view: View, width: number, height: number, sx: number, sy: number): [number, number] {
  const scale = unit(width, height) * view.zoom;
  return [view.cx + (sx - width / 2) / scale, view.cy + (sy - height / 2) / scale];
}

/** The view kept within reach of the map: its centre never leaves the map's square. */
function bounded(view: View): View {
  const zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, view.zoom));
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  return { zoom, cx: clamp(view.cx), cy: clamp(view.cy) };
}

/** The view zoomed by `factor` about a place of the canvas, which keeps showing the same point of the map. */
export function zoomAt(view: View, width: number, height: number, sx: number, sy: number, factor: number): View {
  const zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, view.zoom * factor));
  const [mx, my] = toMap(view, width, height, sx, sy);
  const scale = unit(width, height) * zoom;
  return bounded({ zoom, cx: mx - (sx - width / 2) / scale, cy: my - (sy - height / 2) / scale });
}

/** The view moved by a drag of (dx, dy) CSS pixels: the map follows the pointer. */
export function panBy(view: View, width: number, height: number, dx: number, dy: number): View {
  const scale = unit(width, height) * view.zoom;
  return bounded({ ...view, cx: view.cx - dx / scale, cy: view.cy - dy / scale });
}

/** The view centred on a point of the map, at least at `zoom`. */
export function centredOn(view: View, x: number, y: number, zoom = view.zoom): View {
  return bounded({ zoom: Math.max(view.zoom, zoom), cx: x, cy: y });
}

/** The index of the point nearest a place of the canvas within `radius` CSS pixels, or -1. */
export function pointAt(points: readonly MapPoint[], view: View, width: number, height: number, sx: number, sy: number, radius: number): number {
  let best = -1;
  let bestD = radius * radius;
  for (let i = 0; i < points.length; i++) {
    const [px, py] = toScreen(view, width, height, points[i]!.x, points[i]!.y);
    const d = (px - sx) ** 2 + (py - sy) ** 2;
    if (d <= bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

export type ColourBy = 'mood' | 'tempo' | 'genre';

export const COLOUR_CHOICES: readonly { value: ColourBy; label: string }[] = [
  { value: 'mood', label: 'Mood' },
  { value: 'tempo', label: 'Tempo' },
  { value: 'genre', label: 'Genre' },
];

/** A colour of the legend: its label, the stylesheet's colour (`--map-<name>`, class `map-colour-<name>`) and the points it colours. */
export interface LegendEntry {
  label: string;
  colour: string;
  count: number;
}

export interface Colouring {
  /** What the legend is titled. */
  title: string;
  entries: LegendEntry[];
  /** The index of each point's entry. */
  entryOf: Uint8Array;
  /** Said under the legend (what grey means, why there is no genre). */
  note?: string;
}

const MOODS = [
  ['happy', 'Happy'],
  ['sad', 'Sad'],
  ['relaxed', 'Relaxed'],
  ['aggressive', 'Aggressive'],
] as const;

/** The name of a point's strongest mood. */
export function strongestMood(p: MapPoint): string {
  let best: (typeof MOODS)[number] = MOODS[0];
  for (const mood of MOODS) if (p[mood[0]] > p[best[0]]) best = mood;
  return best[1];
}

/** Genres given a colour of their own; the rest are grey. */
export const GENRE_COLOURS = 8;
const TEMPO_BINS = 5;

/** The colour of every point, and the legend, for a choice of colouring. */
export function colouring(points: readonly MapPoint[], by: ColourBy): Colouring {
  const entryOf = new Uint8Array(points.length);
  if (by === 'mood') {
    const entries = MOODS.map(([name, label]) => ({ label, colour: name, count: 0 }));
    points.forEach((p, i) => {
      const at = MOODS.findIndex(([, label]) => label === strongestMood(p));
      entryOf[i] = at;
      entries[at]!.count++;
    });
    return { title: 'Strongest mood', entries, entryOf };
  }
  if (by === 'tempo') {
    const sorted = points.map((p) => p.tempo).sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
    // Equal steps over the middle 90 % of the tempos, rounded to 10 BPM; the ends take the rest.
    let lo = Math.floor(at(0.05) / 10) * 10;
    let hi = Math.ceil(at(0.95) / 10) * 10;
    if (hi - lo < 5 * TEMPO_BINS) {
      const mid = (lo + hi) / 2;
      lo = Math.round(mid - 2.5 * TEMPO_BINS);
      hi = lo + 5 * TEMPO_BINS;
    }
    const step = (hi - lo) / TEMPO_BINS;
    const bound = (k: number) => Math.round(lo + k * step);
    const entries = Array.from({ length: TEMPO_BINS }, (_, k) => ({
      label: k === 0 ? `under ${bound(1)} BPM` : k === TEMPO_BINS - 1 ? `${bound(k)} BPM and over` : `${bound(k)}–${bound(k + 1)} BPM`,
      colour: `tempo-${k}`,
      count: 0,
    }));
    points.forEach((p, i) => {
      let k = 0;
      while (k < TEMPO_BINS - 1 && p.tempo >= bound(k + 1)) k++;
      entryOf[i] = k;
      entries[k]!.count++;
    });
    return { title: 'Tempo, slow to fast', entries, entryOf };
  }
  const counts = new Map<string, number>();
  for (const p of points) if (p.genre !== null) counts.set(p.genre, (counts.get(p.genre) ?? 0) + 1);
  const top = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, GENRE_COLOURS);
  const entries: LegendEntry[] = top.map(([genre], k) => ({ label: genre, colour: `genre-${k}`, count: 0 }));
  const other = entries.length;
  const none = other + 1;
  const shown = new Map(top.map(([genre], k) => [genre, k]));
  entries.push({ label: 'Other genres', colour: 'other', count: 0 }, { label: 'No genre', colour: 'none', count: 0 });
  points.forEach((p, i) => {
    const k = p.genre === null ? none : (shown.get(p.genre) ?? other);
    entryOf[i] = k;
    entries[k]!.count++;
  });
  return {
    title: 'Top genre',
    entries,
    entryOf,
    note:
      counts.size === 0
        ? 'No track on the map has a genre: the auto-tagger’s tags come with analyses made by the trained models.'
        : `The ${top.length} most common genres have a colour; the rest are grey. “No genre”: analysed without the trained models.`,
  };
}
