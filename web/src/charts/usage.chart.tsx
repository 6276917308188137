import { useId } from 'react';
import { ticks } from '../lib/format';
import { useContainerWidth } from './container-width';
import { DataTable } from './data-table';
import type { DayCount } from './usage.days';


const HEIGHT = 200;
const LEFT = 48;
const RIGHT = 8;
const TOP = 10;
const BOTTOM = 28;

/**
 * Requests (light) and analyses (dark, in front) per day, days left to right. One image to
 * assistive technology with the totals as its description; every day is in the table.
 */
export function UsageChart({ title, days }: { title: string; days: readonly DayCount[] }) {
  const id = useId();
  const [ref, width] = useContainerWidth<HTMLDivElement>(720);
  const top = Math.max(1, ...days.map((d) => Math.max(d.requests, d.analyses)));
  // The axis ends on a round tick at or above the busiest day; counts have whole-number ticks.
  const scale = ticks(top, 4, 1);
  const step = scale[1] ?? top;
  while (scale[scale.length - 1]! < top) scale.push(scale[scale.length - 1]! + step);
  const max = scale[scale.length - 1]!;
  const plotW = width - LEFT - RIGHT;
  const plotH = HEIGHT - TOP - BOTTOM;
  const slot = plotW / Math.max(1, days.length);
  const y = (v: number): number => TOP + plotH - (v / max) * plotH;
  const totalRequests = days.reduce((s, d) => s + d.requests, 0);
  const totalAnalyses = days.reduce((s, d) => s + d.analyses, 0);
  // A date label per 56 px at most.
  const labelEvery = Math.ceil(days.length / Math.max(1, Math.floor(plotW / 56)));
  return (
    <figure className="chart usage-chart">
      <figcaption id={`${id}-title`}>{title}</figcaption>
      <div ref={ref}>
      <svg width={width} height={HEIGHT} viewBox={`0 0 ${width} ${HEIGHT}`} role="img" aria-labelledby={`${id}-title`} aria-describedby={`${id}-desc`}>
        <desc id={`${id}-desc`}>{`${totalRequests} requests and ${totalAnalyses} analyses over ${days.length} days, at most ${top} in a day.`}</desc>
        {scale.map((v) => (
          <g key={v}>
            <line className="gridline" x1={LEFT} x2={width - RIGHT} y1={y(v)} y2={y(v)} />
            <text className="tick" x={LEFT - 6} y={y(v)} textAnchor="end" dominantBaseline="central">
              {v}
            </text>
          </g>
        ))}
        {days.map((d, i) => {
          const x = LEFT + i * slot;
          return (
            <g key={d.day}>
              <rect className="bar requests" x={x + slot * 0.1} y={y(d.requests)} width={slot * 0.8} height={TOP + plotH - y(d.requests)}>
                <title>{`${d.day}: ${d.requests} requests, ${d.analyses} analyses`}</title>
              </rect>
              <rect className="bar analyses" x={x + slot * 0.3} y={y(d.analyses)} width={slot * 0.4} height={TOP + plotH - y(d.analyses)} />
              {i % labelEvery === 0 && (
                <text className="tick" x={x + slot / 2} y={HEIGHT - 10} textAnchor="middle">
                  {d.day.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      </div>
      <p className="legend" aria-hidden="true">
        <span className="swatch requests" /> requests <span className="swatch analyses" /> analyses
      </p>
      <DataTable caption={title} columns={['Day', 'Requests', 'Analyses']} rows={[...days].reverse().map((d) => [d.day, d.requests, d.analyses])} />
    </figure>
  );
}
