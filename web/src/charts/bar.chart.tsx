import { useId } from 'react';
import { useContainerWidth } from './container-width';
import { DataTable } from './data-table';

export interface Bar {
  label: string;
  value: number;
  /** A class of the stylesheet's palette (bar colours with at least 3:1 contrast on the page). */
  tone?: string;
}

const ROW = 28;
const LABEL = 124;
const VALUE = 44;
/** Bars longer than this are harder to compare, not easier. */
const MAX_WIDTH = 560;

/**
 * Horizontal bars of scores on a fixed scale (0 to `max`), drawn in SVG. The drawing is one image
 * to assistive technology, named by the title and described by every value; the same values are
 * in a table under it.
 */
export function BarChart({ title, bars, max = 1, format = (v) => v.toFixed(2) }: { title: string; bars: readonly Bar[]; max?: number; format?: (value: number) => string }) {
  const id = useId();
  const [ref, available] = useContainerWidth<HTMLDivElement>(360);
  const width = Math.min(MAX_WIDTH, available);
  const plot = Math.max(40, width - LABEL - VALUE);
  const height = bars.length * ROW + 8;
  const description = bars.map((b) => `${b.label} ${format(b.value)}`).join(', ');
  return (
    <figure className="chart bar-chart">
      <figcaption id={`${id}-title`}>{title}</figcaption>
      <div ref={ref}>
      <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={`${id}-title`} aria-describedby={`${id}-desc`}>
        <desc id={`${id}-desc`}>{`${description} (scale 0 to ${format(max)}).`}</desc>
        {[0.25, 0.5, 0.75, 1].map((f) => (
          <line key={f} className="gridline" x1={LABEL + f * plot} x2={LABEL + f * plot} y1={2} y2={height - 4} />
        ))}
        {bars.map((b, i) => {
          const y = 4 + i * ROW;
          const w = Math.max(0, Math.min(1, b.value / max)) * plot;
          return (
            <g key={b.label}>
              <text className="label" x={LABEL - 8} y={y + ROW / 2} textAnchor="end" dominantBaseline="central">
                {b.label}
              </text>
              <rect className="track" x={LABEL} y={y + 5} width={plot} height={ROW - 10} rx={3} />
              <rect className={`bar ${b.tone ?? 'tone-0'}`} x={LABEL} y={y + 5} width={w} height={ROW - 10} rx={3}>
                <title>{`${b.label}: ${format(b.value)}`}</title>
              </rect>
              <text className="value" x={width - 4} y={y + ROW / 2} textAnchor="end" dominantBaseline="central">
                {format(b.value)}
              </text>
            </g>
          );
        })}
      </svg>
      </div>
      <DataTable caption={title} columns={['Measure', 'Value']} rows={bars.map((b) => [b.label, format(b.value)])} />
    </figure>
  );
}
