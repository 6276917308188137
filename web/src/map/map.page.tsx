import { useQuery } from '@apollo/client/react';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { Link } from 'react-router';
import { usePageTitle } from '../app/page';
import { useContainerWidth } from '../charts/container-width';
import { problemOf } from '../graphql/problem';
import { LibraryMapDocument, MapNearestDocument, MapPathDocument } from '../gql/graphql';
import { dateTime } from '../lib/format';
import { trackPath } from '../search/search.page';
import {
  COLOUR_CHOICES,
  HOME,
  MAX_ZOOM,
  MIN_ZOOM,
  ZOOM_STEP,
  centredOn,
  colouring as colouringOf,
  panBy,
  pointAt,
  strongestMood,
  toScreen,
  zoomAt,
  type ColourBy,
  type Colouring,
  type MapPoint,
  type View,
} from './map.view';

/** A track the page refers to: a point of the map, or one the API named (a neighbour or a step not in the map's sample). */
interface Chosen {
  trackKey: string;
  artist: string;
  trackName: string;
}

/** How often the page asks again while the server computes a newer map, ms. */
const STALE_POLL_MS = 5000;
/** Radius of a point, of the ring around a chosen one, and how near the pointer must come to one, CSS pixels. */
const DOT = 3;
const RING = 7;
const HIT = 10;
/** Canvas pixels moved by an arrow key. */
const KEY_PAN = 48;
/** Tracks the search lists, and rows the table shows at most. */
const FOUND = 12;
const TABLE_ROWS = 200;

const nameOf = (t: Chosen) => `${t.artist} – ${t.trackName}`;

/** Every analysed track as a point: tracks that sound alike lie close (the server's 2-D projection of their sound embeddings). */
export function MapPage() {
  usePageTitle('Map');
  // The map is large (up to 5,000 points) and changes as a whole: kept by the page, not Apollo's normalised cache.
  const { data, loading, error, refetch } = useQuery(LibraryMapDocument, { fetchPolicy: 'no-cache' });
  const map = data?.soundMap;
  const stale = map?.stale === true;
  useEffect(() => {
    if (!stale) return;
    const timer = setInterval(() => void refetch().catch(() => {}), STALE_POLL_MS);
    return () => clearInterval(timer);
  }, [stale, refetch]);

  return (
    <section className="map-page">
      <h1 id="map-title" tabIndex={-1}>
        Map
      </h1>
      <p className="lead">Every analysed track placed by how it sounds: tracks that sound alike lie close together. Choose one to see its nearest by sound, or draw a path from one to another.</p>
      <p className="status" role="status">
        {loading && !map
          ? 'Computing the map… (the first time takes a few seconds for a large library)'
          : map
            ? `${map.size} track${map.size === 1 ? '' : 's'} on the map${map.size < map.total ? ` (a sample of the ${map.total} with a sound embedding)` : ''}, made ${dateTime(map.computedAt)}.${stale ? ' New analyses arrived: a newer map is being made.' : ''}`
            : ''}
      </p>
      {error && (
        <p className="error" role="alert">
          The map is not available: {problemOf(error).message}
        </p>
      )}
      {map && map.size === 0 && <p className="notice">No analysed track has a sound embedding yet: analyse some tracks, and they appear here.</p>}
      {map && map.size > 0 && <LibraryMap points={map.points} />}
    </section>
  );
}

function LibraryMap({ points }: { points: readonly MapPoint[] }) {
  const id = useId();
  const [colourBy, setColourBy] = useState<ColourBy>('mood');
  const [view, setView] = useState<View>(HOME);
  const [selected, setSelected] = useState<Chosen | null>(null);
  const [from, setFrom] = useState<Chosen | null>(null);
  const [to, setTo] = useState<Chosen | null>(null);
  const selectedHeading = useRef<HTMLHeadingElement>(null);
  const [focusPanel, setFocusPanel] = useState(0);

  const colours = useMemo(() => colouringOf(points, colourBy), [points, colourBy]);
  const indexOf = useMemo(() => new Map(points.map((p, i) => [p.trackKey, i])), [points]);

  const nearest = useQuery(MapNearestDocument, { variables: { trackKey: selected?.trackKey ?? '' }, skip: !selected });
  const path = useQuery(MapPathDocument, { variables: { from: from?.trackKey ?? '', to: to?.trackKey ?? '' }, skip: !from || !to || from.trackKey === to.trackKey });
  const nearestKeys = useMemo(() => (selected ? (nearest.data?.similar.map((s) => s.track.trackKey) ?? []) : []), [selected, nearest.data]);
  const pathKeys = useMemo(() => (from && to ? (path.data?.soundPath.map((s) => s.track.trackKey) ?? []) : []), [from, to, path.data]);

  /** Chooses a track; from a control other than the map, the view centres on it and focus moves to its panel. */
  function choose(track: Chosen, fromControl: boolean): void {
    setSelected({ trackKey: track.trackKey, artist: track.artist, trackName: track.trackName });
    if (!fromControl) return;
    const at = indexOf.get(track.trackKey);
    // Zoomed in, the view moves to it; the whole map shows it already.
    if (at !== undefined) setView((v) => (v.zoom > 1 ? centredOn(v, points[at]!.x, points[at]!.y) : v));
    setFocusPanel((n) => n + 1);
  }
  useEffect(() => {
    if (focusPanel > 0) selectedHeading.current?.focus();
  }, [focusPanel]);

  const selectedPoint = selected ? points[indexOf.get(selected.trackKey) ?? -1] : undefined;
  return (
    <>
      <div className="map-controls">
        <div className="field">
          <label htmlFor={`${id}-colour`}>Colour by</label>
          <select id={`${id}-colour`} value={colourBy} onChange={(e) => setColourBy(e.target.value as ColourBy)}>
            {COLOUR_CHOICES.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </div>
        <div className="map-zoom" role="group" aria-label="Zoom">
          <button type="button" className="secondary" aria-label="Zoom in" onClick={() => setView((v) => ({ ...v, zoom: Math.min(MAX_ZOOM, v.zoom * ZOOM_STEP) }))}>
            +
          </button>
          <button type="button" className="secondary" aria-label="Zoom out" onClick={() => setView((v) => ({ ...v, zoom: Math.max(MIN_ZOOM, v.zoom / ZOOM_STEP) }))}>
            −
          </button>
          <button type="button" className="secondary" onClick={() => setView(HOME)}>
            Reset view
          </button>
          <span className="map-zoom-level">Zoom {Math.round(view.zoom * 100)} %</span>
        </div>
      </div>
      <div className="map-layout">
        <div className="map-main">
          <MapCanvas
            points={points}
            colours={colours}
            colourBy={colourBy}
            view={view}
            setView={setView}
            selectedKey={selected?.trackKey}
            nearestKeys={nearestKeys}
            pathKeys={pathKeys}
            indexOf={indexOf}
            legendId={`${id}-legend`}
            onChoose={(p) => choose(p, false)}
          />
          <Legend id={`${id}-legend`} colours={colours} colourBy={colourBy} />
        </div>
        <div className="map-side">
          <section className="panel" aria-labelledby={`${id}-selected`}>
            {selected ? (
              <>
                <h2 id={`${id}-selected`} ref={selectedHeading} tabIndex={-1}>
                  {selected.trackName} <span className="by">{selected.artist}</span>
                </h2>
                {selectedPoint && (
                  <p className="map-facts">
                    {Math.round(selectedPoint.tempo)} BPM · {strongestMood(selectedPoint).toLowerCase()} · {selectedPoint.genre ?? 'no genre'}
                  </p>
                )}
                <p>
                  <Link to={trackPath(selected.trackKey)}>Open the track’s page</Link>
                </p>
                <div className="actions">
                  <button type="button" className="secondary" onClick={() => setFrom(selected)} disabled={to?.trackKey === selected.trackKey}>
                    Path from here
                  </button>
                  <button type="button" className="secondary" onClick={() => setTo(selected)} disabled={from?.trackKey === selected.trackKey}>
                    Path to here
                  </button>
                </div>
                <h3>Nearest by sound</h3>
                {nearest.loading && <p>Finding the nearest…</p>}
                {nearest.error && <p className="error">The nearest are not available: {problemOf(nearest.error).message}</p>}
                {nearest.data && nearest.data.similar.length === 0 && <p>No other track has a sound embedding yet.</p>}
                {nearest.data && nearest.data.similar.length > 0 && (
                  <ol className="map-tracks" aria-label={`Nearest by sound to ${nameOf(selected)}`}>
                    {nearest.data.similar.map(({ track, distance }) => (
                      <li key={track.trackKey}>
                        <button type="button" className="link-button" onClick={() => choose(track, true)}>
                          {nameOf(track)}
                        </button>{' '}
                        <span className="map-distance">distance {distance.toFixed(2)}</span>
                      </li>
                    ))}
                  </ol>
                )}
              </>
            ) : (
              <>
                <h2 id={`${id}-selected`} ref={selectedHeading} tabIndex={-1}>
                  No track chosen
                </h2>
                <p>Click a point, or find a track in the list below: its nearest by sound are shown here, and a path can be drawn from it to another.</p>
              </>
            )}
          </section>
          <PathPanel from={from} to={to} steps={path.data?.soundPath} loading={path.loading} error={path.error} onChoose={(t) => choose(t, true)} onClear={() => {
              setFrom(null);
              setTo(null);
            }} />
        </div>
      </div>
      <TrackList points={points} onChoose={(t) => choose(t, true)} />
    </>
  );
}

/** The two ends of a path, and its tracks once both are chosen. */
function PathPanel({
  from,
  to,
  steps,
  loading,
  error,
  onChoose,
  onClear,
}: {
  from: Chosen | null;
  to: Chosen | null;
  steps: readonly { distance: number; track: Chosen }[] | undefined;
  loading: boolean;
  error: Error | undefined;
  onChoose: (track: Chosen) => void;
  onClear: () => void;
}) {
  const id = useId();
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Path by sound</h2>
      <dl className="map-ends">
        <div>
          <dt>From</dt>
          <dd>{from ? nameOf(from) : 'not chosen: “Path from here” on a track'}</dd>
        </div>
        <div>
          <dt>To</dt>
          <dd>{to ? nameOf(to) : 'not chosen: “Path to here” on a track'}</dd>
        </div>
      </dl>
      {from && to && (
        <>
          {loading && <p>Finding the path…</p>}
          {error && <p className="error">The path is not available: {problemOf(error).message}</p>}
          {steps && (
            <ol className="map-tracks map-path-steps" aria-label={`Path from ${nameOf(from)} to ${nameOf(to)}`}>
              {steps.map(({ track, distance }, i) => (
                <li key={track.trackKey}>
                  <button type="button" className="link-button" onClick={() => onChoose(track)}>
                    {nameOf(track)}
                  </button>
                  {i > 0 && <span className="map-distance"> step {distance.toFixed(2)}</span>}
                </li>
              ))}
            </ol>
          )}
        </>
      )}
      {(from || to) && (
        <button type="button" className="secondary" onClick={onClear}>
          Clear the path
        </button>
      )}
    </section>
  );
}

function Legend({ id, colours, colourBy }: { id: string; colours: Colouring; colourBy: ColourBy }) {
  const entries = colours.entries.filter((e) => e.count > 0 || colourBy !== 'genre');
  return (
    <div className="map-legend" id={id}>
      <h2 className="map-legend-title">{colours.title}</h2>
      <ul aria-label={`Legend: ${colours.title.toLowerCase()}`}>
        {entries.map((e) => (
          <li key={e.colour}>
            <span className={`swatch map-colour-${e.colour}`} aria-hidden="true" />
            {e.label} <span className="map-count">({e.count})</span>
          </li>
        ))}
      </ul>
      {colours.note && <p className="chart-note">{colours.note}</p>}
    </div>
  );
}

/** The tracks of the map as a list found by name, and as a table: what keyboard and screen-reader users choose from. */
function TrackList({ points, onChoose }: { points: readonly MapPoint[]; onChoose: (track: Chosen) => void }) {
  const id = useId();
  const [query, setQuery] = useState('');
  const [table, setTable] = useState(false);
  const matching = useMemo(() => {
    const q = query.trim().toLowerCase();
    const found = q ? points.filter((p) => p.artist.toLowerCase().includes(q) || p.trackName.toLowerCase().includes(q)) : [...points];
    return found.sort((a, b) => a.artist.localeCompare(b.artist) || a.trackName.localeCompare(b.trackName));
  }, [points, query]);
  const searching = query.trim() !== '';
  return (
    <section className="panel map-list" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Tracks on the map</h2>
      <div className="map-list-controls">
        <div className="field">
          <label htmlFor={`${id}-find`}>Find a track</label>
          <input id={`${id}-find`} type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="Artist or title" autoComplete="off" />
        </div>
        <button type="button" className="secondary" aria-expanded={table} aria-controls={`${id}-table`} onClick={() => setTable((t) => !t)}>
          {table ? 'Hide the table' : 'Show the tracks as a table'}
        </button>
      </div>
      <p className="status" role="status">
        {searching ? `${matching.length} track${matching.length === 1 ? '' : 's'} match “${query.trim()}”.` : ''}
      </p>
      {searching && !table && matching.length > 0 && (
        <ul className="map-tracks" aria-label="Tracks found">
          {matching.slice(0, FOUND).map((p) => (
            <li key={p.trackKey}>
              <button type="button" className="link-button" onClick={() => onChoose(p)}>
                {nameOf(p)}
              </button>
            </li>
          ))}
          {matching.length > FOUND && <li className="muted">… and {matching.length - FOUND} more: type more of a name, or show the table.</li>}
        </ul>
      )}
      <div id={`${id}-table`} hidden={!table}>
        {table && (
          <div className="table-scroll">
            <table>
              <caption>
                {matching.length > TABLE_ROWS ? `The first ${TABLE_ROWS} of ${matching.length} tracks` : `${matching.length} tracks`}, by artist
              </caption>
              <thead>
                <tr>
                  <th scope="col">Track</th>
                  <th scope="col" className="num">
                    Tempo
                  </th>
                  <th scope="col">Strongest mood</th>
                  <th scope="col">Genre</th>
                </tr>
              </thead>
              <tbody>
                {matching.slice(0, TABLE_ROWS).map((p) => (
                  <tr key={p.trackKey}>
                    <th scope="row">
                      <button type="button" className="link-button" onClick={() => onChoose(p)}>
                        {nameOf(p)}
                      </button>
                    </th>
                    <td className="num">{Math.round(p.tempo)}</td>
                    <td>{strongestMood(p)}</td>
                    <td>{p.genre ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </section>
  );
}

/** The colours of the stylesheet the canvas draws with (light or dark, as the page is). */
function paletteOf(element: Element, colours: Colouring): { entries: string[]; surface: string; text: string; accent: string; line: string } {
  const style = getComputedStyle(element);
  const read = (name: string) => style.getPropertyValue(name).trim() || '#777';
  return {
    entries: colours.entries.map((e) => read(`--map-${e.colour}`)),
    surface: read('--surface'),
    text: read('--text'),
    accent: read('--focus'),
    line: read('--line'),
  };
}

/**
 * The map drawn on a canvas (thousands of points stay smooth): zoomed by the wheel, a pinch or
 * the keys + and −, moved by dragging or the arrow keys; a point is named under the pointer
 * and chosen by a click or a tap.
 */
function MapCanvas({
  points,
  colours,
  colourBy,
  view,
  setView,
  selectedKey,
  nearestKeys,
  pathKeys,
  indexOf,
  legendId,
  onChoose,
}: {
  points: readonly MapPoint[];
  colours: Colouring;
  colourBy: ColourBy;
  view: View;
  setView: (update: (view: View) => View) => void;
  selectedKey: string | undefined;
  nearestKeys: readonly string[];
  pathKeys: readonly string[];
  indexOf: ReadonlyMap<string, number>;
  legendId: string;
  onChoose: (point: MapPoint) => void;
}) {
  const [box, width] = useContainerWidth<HTMLDivElement>(640);
  const height = Math.round(Math.min(640, Math.max(320, width * 0.7)));
  const canvas = useRef<HTMLCanvasElement>(null);
  const [hover, setHover] = useState(-1);
  const [drawn, setDrawn] = useState(0);
  const size = useRef({ width, height });
  size.current = { width, height };
  /** Pointers down on the canvas, and whether the present gesture moved (a drag, not a click). */
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const moved = useRef(false);

  // The colours follow the page's light or dark scheme: a change of it draws the map again.
  const [scheme, setScheme] = useState(0);
  useEffect(() => {
    const query = window.matchMedia('(prefers-color-scheme: dark)');
    const changed = () => setScheme((n) => n + 1);
    query.addEventListener('change', changed);
    return () => query.removeEventListener('change', changed);
  }, []);

  // A view that moved leaves the pointer over another place: nothing is named until it moves.
  useEffect(() => setHover(-1), [view]);

  // The points of each colour, drawn a colour at a time.
  const byEntry = useMemo(() => {
    const lists: number[][] = colours.entries.map(() => []);
    colours.entryOf.forEach((e, i) => lists[e]!.push(i));
    return lists;
  }, [colours]);

  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    const frame = requestAnimationFrame(() => {
      const ratio = window.devicePixelRatio || 1;
      if (element.width !== Math.round(width * ratio)) element.width = Math.round(width * ratio);
      if (element.height !== Math.round(height * ratio)) element.height = Math.round(height * ratio);
      const ctx = element.getContext('2d');
      if (!ctx) return;
      const palette = paletteOf(element, colours);
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      ctx.fillStyle = palette.surface;
      ctx.fillRect(0, 0, width, height);
      const at = (i: number) => toScreen(view, width, height, points[i]!.x, points[i]!.y);
      const inside = (x: number, y: number) => x >= -DOT && y >= -DOT && x <= width + DOT && y <= height + DOT;
      let count = 0;
      byEntry.forEach((list, e) => {
        ctx.fillStyle = palette.entries[e]!;
        ctx.beginPath();
        for (const i of list) {
          const [x, y] = at(i);
          if (!inside(x, y)) continue;
          count++;
          ctx.moveTo(x + DOT, y);
          ctx.arc(x, y, DOT, 0, 2 * Math.PI);
        }
        ctx.fill();
      });
      const ring = (i: number | undefined, radius: number, colour: string, lineWidth: number) => {
        if (i === undefined || i < 0) return;
        const [x, y] = at(i);
        ctx.strokeStyle = colour;
        ctx.lineWidth = lineWidth;
        ctx.beginPath();
        ctx.arc(x, y, radius, 0, 2 * Math.PI);
        ctx.stroke();
      };
      // The path: a line through its tracks on the map, in order, each step ringed.
      const steps = pathKeys.map((k) => indexOf.get(k)).filter((i): i is number => i !== undefined);
      if (steps.length > 1) {
        ctx.strokeStyle = palette.accent;
        ctx.lineWidth = 3;
        ctx.lineJoin = 'round';
        ctx.beginPath();
        steps.forEach((i, n) => {
          const [x, y] = at(i);
          if (n === 0) ctx.moveTo(x, y);
          else ctx.lineTo(x, y);
        });
        ctx.stroke();
        for (const i of steps) ring(i, 5, palette.accent, 2);
      }
      // The chosen track, a thin line to each of its nearest by sound, and the pointer's.
      const chosen = selectedKey === undefined ? undefined : indexOf.get(selectedKey);
      if (chosen !== undefined) {
        const [sx, sy] = at(chosen);
        ctx.strokeStyle = palette.text;
        ctx.lineWidth = 1;
        ctx.beginPath();
        for (const k of nearestKeys) {
          const i = indexOf.get(k);
          if (i === undefined) continue;
          const [x, y] = at(i);
          ctx.moveTo(sx, sy);
          ctx.lineTo(x, y);
        }
        ctx.stroke();
        for (const k of nearestKeys) ring(indexOf.get(k), 5, palette.text, 1.5);
        ring(chosen, RING, palette.text, 3);
      }
      ring(hover, RING - 1, palette.text, 2);
      element.dataset['drawn'] = String(count);
      setDrawn(count);
    });
    return () => cancelAnimationFrame(frame);
  }, [points, colours, byEntry, view, width, height, selectedKey, nearestKeys, pathKeys, indexOf, hover, scheme]);

  // The wheel zooms about the pointer (a listener that may cancel the page's scrolling: React's is passive).
  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    const wheel = (event: WheelEvent) => {
      event.preventDefault();
      const rect = element.getBoundingClientRect();
      const factor = Math.exp(-event.deltaY * (event.deltaMode === 1 ? 0.05 : 0.0015));
      const { width: w, height: h } = size.current;
      setView((v) => zoomAt(v, w, h, event.clientX - rect.left, event.clientY - rect.top, factor));
    };
    element.addEventListener('wheel', wheel, { passive: false });
    return () => element.removeEventListener('wheel', wheel);
  }, [setView]);

  const local = (event: ReactPointerEvent<HTMLCanvasElement>): { x: number; y: number } => {
    const rect = event.currentTarget.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  };

  function down(event: ReactPointerEvent<HTMLCanvasElement>): void {
    event.currentTarget.setPointerCapture(event.pointerId);
    pointers.current.set(event.pointerId, local(event));
    if (pointers.current.size === 1) moved.current = false;
  }

  function move(event: ReactPointerEvent<HTMLCanvasElement>): void {
    const here = local(event);
    const before = pointers.current.get(event.pointerId);
    if (!before) {
      // Hovering (a mouse or a pen): name the point under it.
      setHover(pointAt(points, view, width, height, here.x, here.y, HIT));
      return;
    }
    const others = [...pointers.current].filter(([id]) => id !== event.pointerId).map(([, p]) => p);
    pointers.current.set(event.pointerId, here);
    const other = others[0];
    if (other) {
      // Two fingers: zoom by how far apart they moved, about the point between them, and follow it.
      const ratio = Math.hypot(here.x - other.x, here.y - other.y) / Math.max(1, Math.hypot(before.x - other.x, before.y - other.y));
      const mid = { x: (here.x + other.x) / 2, y: (here.y + other.y) / 2 };
      moved.current = true;
      setView((v) => panBy(zoomAt(v, width, height, mid.x, mid.y, ratio), width, height, (here.x - before.x) / 2, (here.y - before.y) / 2));
      return;
    }
    if (!moved.current && Math.hypot(here.x - before.x, here.y - before.y) < 3) {
      pointers.current.set(event.pointerId, before);
      return;
    }
    moved.current = true;
    setHover(-1);
    setView((v) => panBy(v, width, height, here.x - before.x, here.y - before.y));
  }

  function up(event: ReactPointerEvent<HTMLCanvasElement>): void {
    const wasDown = pointers.current.delete(event.pointerId);
    if (!wasDown || moved.current || pointers.current.size > 0) return;
    const here = local(event);
    const i = pointAt(points, view, width, height, here.x, here.y, HIT);
    if (i >= 0) onChoose(points[i]!);
  }

  function key(event: KeyboardEvent<HTMLCanvasElement>): void {
    const pan = (dx: number, dy: number) => setView((v) => panBy(v, width, height, dx, dy));
    const zoom = (factor: number) => setView((v) => zoomAt(v, width, height, width / 2, height / 2, factor));
    const actions: Record<string, () => void> = {
      ArrowLeft: () => pan(KEY_PAN, 0),
      ArrowRight: () => pan(-KEY_PAN, 0),
      ArrowUp: () => pan(0, KEY_PAN),
      ArrowDown: () => pan(0, -KEY_PAN),
      '+': () => zoom(ZOOM_STEP),
      '=': () => zoom(ZOOM_STEP),
      '-': () => zoom(1 / ZOOM_STEP),
      '0': () => setView(() => HOME),
    };
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  }

  const hovered = hover >= 0 ? points[hover] : undefined;
  const [tipX, tipY] = hovered ? toScreen(view, width, height, hovered.x, hovered.y) : [0, 0];
  const colourName = COLOUR_CHOICES.find((c) => c.value === colourBy)?.label.toLowerCase() ?? colourBy;
  return (
    <div className="map-stage" ref={box}>
      <canvas
        ref={canvas}
        className="map-canvas"
        width={width}
        height={height}
        style={{ width: `${width}px`, height: `${height}px` }}
        role="img"
        tabIndex={0}
        aria-label={`Map of ${points.length} tracks by how they sound, coloured by ${colourName}: tracks that sound alike lie close. Arrow keys move it, + and − zoom, 0 shows all of it; choose a track from the list below.`}
        aria-describedby={legendId}
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={(e) => pointers.current.delete(e.pointerId)}
        onPointerLeave={() => setHover(-1)}
        onKeyDown={key}
      />
      {hovered && (
        <div className="map-tooltip" aria-hidden="true" style={{ left: `${Math.round(tipX)}px`, top: `${Math.round(tipY)}px` }}>
          {nameOf(hovered)}
        </div>
      )}
      <p className="map-readout">
        {drawn} of {points.length} tracks in view
      </p>
    </div>
  );
}
