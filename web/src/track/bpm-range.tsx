import { useState, type FormEvent } from 'react';

/**
 * The BPM range a DJ counts tempi in (a crate of drum and bass: 160 to 180), as rekordbox's and
 * Mixxx's analysis can be told one: kept in this browser (local storage) for every track page.
 * The API's `tempoInRange` counts the tempo there (docs/FEATURES.md, "A BPM range") and judges
 * the range: the page keeps a range only once the API has taken it.
 */
export interface BpmRange {
  min: number;
  max: number;
}

const STORAGE_KEY = 'trackgraph.bpmRange';

/** The kept range, or null (none, one not written by this page, or storage disabled by the browser). */
export function storedRange(): BpmRange | null {
  try {
    const match = /^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)$/.exec(localStorage.getItem(STORAGE_KEY) ?? '');
    return match ? { min: Number(match[1]), max: Number(match[2]) } : null;
  } catch {
    return null;
  }
}

/** Keeps the range for every track page of this browser; null forgets it. */
export function storeRange(range: BpmRange | null): void {
  try {
    if (range) localStorage.setItem(STORAGE_KEY, `${range.min}-${range.max}`);
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage disabled by the browser: the range lasts as long as the page.
  }
}

/** "70–140". */
export function rangeLabel(range: BpmRange): string {
  return `${range.min}–${range.max}`;
}

/**
 * Two tempi and Apply; Clear while a range is set. What the API refused (`refused`, its message)
 * is said under them.
 */
export function BpmRangeForm({ range, refused, onChange }: { range: BpmRange | null; refused?: string; onChange: (range: BpmRange | null) => void }) {
  const [min, setMin] = useState(range ? String(range.min) : '');
  const [max, setMax] = useState(range ? String(range.max) : '');
  const [incomplete, setIncomplete] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const low = Number(min);
    const high = Number(max);
    const given = min.trim() !== '' && max.trim() !== '' && Number.isFinite(low) && Number.isFinite(high);
    setIncomplete(!given);
    if (given) onChange({ min: low, max: high });
  };
  const clear = () => {
    setMin('');
    setMax('');
    setIncomplete(false);
    onChange(null);
  };
  return (
    <form className="bpm-range" aria-label="BPM range" onSubmit={submit}>
      <span>Count the tempo in</span>
      <input type="number" inputMode="decimal" aria-label="Lowest BPM" value={min} onChange={(e) => setMin(e.target.value)} placeholder="70" />
      <span aria-hidden="true">to</span>
      <input type="number" inputMode="decimal" aria-label="Highest BPM" value={max} onChange={(e) => setMax(e.target.value)} placeholder="140" />
      <span>BPM</span>
      <button type="submit" className="secondary">
        Apply
      </button>
      {range && (
        <button type="button" className="secondary" onClick={clear}>
          Clear
        </button>
      )}
      {(incomplete || refused) && (
        <p className="error" role="alert">
          {incomplete ? 'Give both tempi, the lower first (70 to 140).' : refused}
        </p>
      )}
    </form>
  );
}
